package dev.agora.common.files;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

class RangedAnswersTest {

    private static final String TAG = "\"abc\"";

    private final MockHttpServletResponse response = new MockHttpServletResponse();

    @Test
    void oneRangeIsAPartCutAtTheEnd() throws Exception {
        assertThat(answer("bytes=0-0", 10)).isEqualTo(new RangedAnswers.Bytes(0, 0));
        assertThat(answer("bytes=9-9", 10)).isEqualTo(new RangedAnswers.Bytes(9, 9));
        assertThat(answer("bytes=2-5", 10)).isEqualTo(new RangedAnswers.Bytes(2, 5));
        assertThat(response.getStatus()).isEqualTo(206);
        assertThat(response.getHeader("Content-Range")).isEqualTo("bytes 2-5/10");
        assertThat(answer("bytes=5-", 10)).isEqualTo(new RangedAnswers.Bytes(5, 9));
        assertThat(answer("bytes=5-100", 10)).isEqualTo(new RangedAnswers.Bytes(5, 9));
        assertThat(answer("bytes=-3", 10)).isEqualTo(new RangedAnswers.Bytes(7, 9));
        assertThat(answer("bytes=-30", 10)).isEqualTo(new RangedAnswers.Bytes(0, 9));
        assertThat(response.getStatus()).isEqualTo(206);
    }

    @Test
    void aRangeStartingPastTheEndIsUnsatisfiable() throws Exception {
        for (String past : new String[] {"bytes=10-", "bytes=10-20", "bytes=-0"}) {
            assertThat(answer(past, 10)).as(past).isNull();
            assertThat(response.getStatus()).isEqualTo(416);
            assertThat(response.getHeader("Content-Range")).isEqualTo("bytes */10");
            assertThat(response.getContentType()).isEqualTo("application/problem+json");
        }
        assertThat(answer("bytes=0-", 0)).isNull();
        assertThat(response.getStatus()).isEqualTo(416);
    }

    @Test
    void whatDoesNotParseOrAsksForSeveralRangesGetsTheWholeFile() throws Exception {
        for (String whole :
                new String[] {null, "bytes=0-1,4-5", "bytes=5-2", "bytes=a-b", "items=0-1", "bytes=-", "BYTES = 1-2"}) {
            assertThat(answer(whole, 10)).as(whole).isEqualTo(new RangedAnswers.Bytes(0, 9));
            assertThat(response.getStatus()).isEqualTo(200);
            assertThat(response.getHeader("Content-Range")).isNull();
        }
    }

    @Test
    void aRangeIsHonouredOnlyWhileIfRangeNamesTheCurrentTag() throws Exception {
        MockHttpServletRequest current = request("bytes=2-5");
        current.addHeader("If-Range", TAG);
        assertThat(RangedAnswers.decide(current, response, TAG, 10)).isEqualTo(new RangedAnswers.Bytes(2, 5));

        MockHttpServletRequest stale = request("bytes=2-5");
        stale.addHeader("If-Range", "\"old\"");
        MockHttpServletResponse whole = new MockHttpServletResponse();
        assertThat(RangedAnswers.decide(stale, whole, TAG, 10)).isEqualTo(new RangedAnswers.Bytes(0, 9));
        assertThat(whole.getStatus()).isEqualTo(200);
        assertThat(whole.getHeader("ETag")).isEqualTo(TAG);
        assertThat(whole.getHeader("Accept-Ranges")).isEqualTo("bytes");
    }

    @Test
    void aMatchingIfNoneMatchIsNotModified() throws Exception {
        MockHttpServletRequest cached = request("bytes=2-5");
        cached.addHeader("If-None-Match", TAG);
        assertThat(RangedAnswers.decide(cached, response, TAG, 10)).isNull();
        assertThat(response.getStatus()).isEqualTo(304);
    }

    private RangedAnswers.Bytes answer(String range, long size) throws Exception {
        response.reset();
        return RangedAnswers.decide(request(range), response, TAG, size);
    }

    private static MockHttpServletRequest request(String range) {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/books/1/files/a.pdf");
        if (range != null) request.addHeader("Range", range);
        return request;
    }
}
