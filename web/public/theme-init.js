/* global window, document */
// Applies the saved theme (or the OS preference) before the first paint. Loaded synchronously
// from index.html as a file, not inline, so the Content-Security-Policy needs no hash.
(function () {
  var theme = null;
  try {
    theme = window.localStorage.getItem('theme');
  } catch {
    theme = null;
  }
  var dark =
    theme === 'dark' ||
    (theme !== 'light' &&
      !!window.matchMedia &&
      window.matchMedia('(prefers-color-scheme: dark)').matches);
  var root = document.documentElement;
  root.classList.toggle('dark', dark);
  root.style.colorScheme = dark ? 'dark' : 'light';
})();
