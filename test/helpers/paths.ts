// Where tests find the repository and the shared data, in one place.
import { resolve } from 'node:path';

export const REPO = resolve(import.meta.dirname, '..', '..');
/** The shared data folder: SHARED_DATA_DIR as the server reads it (src/core/config.ts), else ../shared/data beside the checkout. */
export const SHARED_DATA = resolve(process.env.SHARED_DATA_DIR || resolve(REPO, '..', 'shared', 'data'));
