/** The type of dependency-cruiser.mjs, for src/layers.test.ts. */
import type { IConfiguration } from 'dependency-cruiser';

declare const config: IConfiguration;
export default config;
