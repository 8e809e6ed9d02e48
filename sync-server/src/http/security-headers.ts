import { secureHeaders } from 'hono/secure-headers';
import { LOGIN_STYLE_SOURCE } from '../auth/login-page.ts';

/**
 * The headers every answer carries — the app shell, its assets, the service worker and the
 * API alike (docs/security.md):
 * - Content-Security-Policy: scripts, styles, workers, fonts and connections from this origin
 *   only (no inline script, no eval); images also from `blob:` (a photo still in this device's
 *   outbox) and `data:`; no plugins; no framing (`frame-ancestors 'none'`, and
 *   X-Frame-Options DENY for older browsers); forms post only here.
 * - Referrer-Policy `same-origin`: `no-referrer` would make browsers send `Origin: null` on
 *   the sign-in form's POST, which the Origin check must refuse; same-origin keeps the real
 *   Origin and sends nothing to other sites.
 * - nosniff, same-origin resource and opener policies (Hono's defaults).
 */
export const securityHeaders = () =>
  secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      // The sign-in page's one inline style, by its hash; no other inline style.
      styleSrc: ["'self'", LOGIN_STYLE_SOURCE],
      imgSrc: ["'self'", 'blob:', 'data:'],
      fontSrc: ["'self'"],
      // 'self' covers the sync socket (ws/wss on this host) in current browsers.
      connectSrc: ["'self'"],
      workerSrc: ["'self'"],
      manifestSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
    xFrameOptions: 'DENY',
    referrerPolicy: 'same-origin',
    crossOriginResourcePolicy: 'same-origin',
    // A route may set a stricter header of its own (a served photo's `sandbox` policy).
    overwrite: false,
  });
