import { z } from 'zod';

// The portal server's Content-Security-Policy forbids eval (script-src 'self'); without this,
// zod probes `new Function` for its fast path and the browser reports a CSP violation.
// Imported first by main.tsx so it runs before any schema is used.
z.config({ jitless: true });
