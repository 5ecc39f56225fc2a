// The trading desk's live updates: the server sends the book and the person's orders as page fragments
// (Server-Sent Events) whenever they change; without this script the page still works, with reloads.
(function () {
  'use strict';
  var desk = document.getElementById('desk');
  if (!desk || !window.EventSource) return;
  var symbol = desk.dataset.symbol || '';
  var status = document.getElementById('live-status');
  var source = new EventSource('/trade/events' + (symbol ? '?symbol=' + encodeURIComponent(symbol) : ''));
  function swap(id, html) {
    var target = document.getElementById(id);
    if (!target) return;
    var holder = document.createElement('div');
    holder.innerHTML = html;
    var fresh = holder.firstElementChild;
    if (fresh) target.replaceWith(fresh);
  }
  source.addEventListener('open', function () { status.textContent = 'Live'; desk.dataset.live = 'true'; });
  source.addEventListener('error', function () { status.textContent = 'Reconnecting…'; desk.dataset.live = 'false'; });
  source.addEventListener('book', function (e) { swap('book-levels', e.data); });
  source.addEventListener('mine', function (e) { swap('mine', e.data); });
})();
