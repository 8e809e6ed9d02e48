// The locale's data, loaded off the page's main thread (lib/warm-icu.ts).
new Intl.NumberFormat().format(1);
new Intl.DateTimeFormat().format(0);
postMessage(null);
