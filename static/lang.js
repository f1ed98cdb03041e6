// Runs before the first paint (a classic script in <head>): picks the page's
// language as the app will (URL lang=, then the last choice, then the
// browser's), so the welcome and the first frame show in it.
(function () {
  var pick = null;
  var parts = (location.search.slice(1) + '&' + location.hash.slice(1)).split('&');
  for (var i = 0; i < parts.length; i++) {
    if (parts[i].indexOf('lang=') === 0) pick = parts[i].slice(5);
  }
  try { pick = pick || localStorage.getItem('groupscope.lang'); } catch (e) { /* storage off */ }
  pick = (pick || navigator.language || 'en').toLowerCase();
  document.documentElement.lang = pick.indexOf('zh') === 0 ? 'zh-CN' : 'en';
})();
