import { createServer } from 'vite';
import { launch } from './launch';

// `npm run dev`: the portal server (API + sandbox) plus Vite with hot reload, which sends /api
// to the portal server so the browser still talks to one origin.
await launch(async (config, portal) => {
  const vite = await createServer({
    server: { host: config.host, proxy: { '/api': { target: portal.url } } },
  });
  await vite.listen();
  const appUrl = vite.resolvedUrls?.local[0] ?? `http://${config.host}:${vite.config.server.port}`;
  console.log(`VMS submission portal (dev, hot reload): ${appUrl}`);
  console.log(`portal server (API): ${portal.url}`);
  return () => vite.close();
});
