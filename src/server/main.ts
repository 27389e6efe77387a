import { launch } from './launch';

// `npm start`: the built SPA, the signing proxy and (without VMS_BASE_URL) the embedded sandbox.
await launch(async (_config, portal) => {
  console.log(`VMS submission portal: ${portal.url}`);
  return null;
});
