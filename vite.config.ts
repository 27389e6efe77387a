import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    sourcemap: true,
    // dist/.vite/manifest.json: scripts/bundle-size.ts reads the entry chunk and its static
    // imports from it to measure what the first page load costs.
    manifest: true,
  },
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'bench/**/*.test.ts'],
    environment: 'node',
    // Component tests opt into a DOM with a `// @vitest-environment jsdom` docblock.
    restoreMocks: true,
  },
});
