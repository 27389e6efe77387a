import { closeOnSignals, describeStartFailure, printUpstream, readConfigOrExit } from './launch';
import { startPortal } from './start';

// `npm start`: the built SPA, the signing proxy and (without VMS_BASE_URL) the embedded sandbox.
const config = readConfigOrExit();
try {
  const portal = await startPortal(config);
  console.log(`VMS submission portal: ${portal.url}`);
  printUpstream(config, portal);
  closeOnSignals(async () => {
    await portal.drain();
  });
} catch (error) {
  console.error(describeStartFailure(error, config));
  process.exit(1);
}
