/* global window, document */
// Applies the stored reading theme before the first paint (an external file: the CSP forbids inline scripts).
(function () {
  var root = document.documentElement;
  try {
    var s = JSON.parse(localStorage.getItem('inkwell.reader-settings') || 'null');
    var theme = s && s.theme;
    if (theme !== 'light' && theme !== 'dark' && theme !== 'sepia') {
      theme =
        window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches
          ? 'dark'
          : 'light';
    }
    root.setAttribute('data-theme', theme);
    if (s && typeof s.font_size === 'number')
      root.style.setProperty('--reader-font-size', s.font_size + 'px');
    if (s && typeof s.line_width === 'string') root.setAttribute('data-line-width', s.line_width);
  } catch {
    root.setAttribute('data-theme', 'light');
  }
})();
