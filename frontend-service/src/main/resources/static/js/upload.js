// Uploads a book's file from the publish page with a progress bar. The bytes go to this frontend's
// /publish/books/{id}/files/{name}, which streams them on to the store's upload API with the signed-in person's token.
(function () {
  'use strict';
  var form = document.getElementById('upload-form');
  if (!form) return;
  var progress = document.getElementById('upload-progress');
  var status = document.getElementById('upload-status');
  var button = document.getElementById('upload-button');

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var bookId = document.getElementById('upload-book').value.trim();
    var file = document.getElementById('upload-file').files[0];
    if (!bookId || !file) { status.textContent = 'Choose a book number and a file.'; return; }
    var xhr = new XMLHttpRequest();
    xhr.open('PUT', '/publish/books/' + encodeURIComponent(bookId) + '/files/' + encodeURIComponent(file.name));
    xhr.setRequestHeader(form.dataset.csrfHeader, form.dataset.csrfToken);
    xhr.setRequestHeader('Content-Type', file.type || 'application/octet-stream');
    progress.hidden = false;
    progress.value = 0;
    button.disabled = true;
    status.textContent = 'Uploading ' + file.name + '…';
    xhr.upload.addEventListener('progress', function (e) {
      if (e.lengthComputable) progress.value = Math.round(e.loaded * 100 / e.total);
    });
    xhr.addEventListener('load', function () {
      button.disabled = false;
      var answer = {};
      try { answer = JSON.parse(xhr.responseText || '{}'); } catch (ignored) { /* not JSON */ }
      if (xhr.status >= 200 && xhr.status < 300) {
        progress.value = 100;
        status.textContent = '';
        var done = document.createElement('span');
        done.textContent = 'Uploaded ' + answer.name + ' (' + answer.size + ' bytes). ';
        var link = document.createElement('a');
        link.href = '/books/' + encodeURIComponent(bookId);
        link.textContent = 'See the book';
        link.id = 'uploaded-link';
        status.appendChild(done);
        status.appendChild(link);
      } else {
        status.textContent = 'Not uploaded: ' + (answer.detail || ('the store answered ' + xhr.status));
      }
    });
    xhr.addEventListener('error', function () {
      button.disabled = false;
      status.textContent = 'Not uploaded: the connection failed. Nothing was registered; try again.';
    });
    xhr.send(file);
  });
})();
