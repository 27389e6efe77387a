/// <reference lib="webworker" />
import '@/shared/lib/zod-config';
import * as Comlink from 'comlink';
import { createImportApi } from './import-api';

/**
 * The import's Web Worker: the import's work (import-api.ts) off the page's thread, so the page
 * only draws what is in view.
 */
Comlink.expose(createImportApi());
