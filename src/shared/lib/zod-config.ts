import { z } from 'zod';

// The portal server's Content-Security-Policy forbids eval (script-src 'self'); without this,
// zod probes `new Function` for its fast path and the browser reports a CSP violation.
// Imported first by main.tsx and by each Web Worker that builds schemas, and built into one chunk with zod (vite.config.ts), so it runs
// before any schema is built, whichever chunk builds it.
z.config({ jitless: true });
