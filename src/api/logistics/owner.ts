// Whose data a request may touch: the key's project, and the sandbox for svc_test_ keys.
// Every query in this folder filters on both, so there is no path to another
// project's rows and test traffic never mixes with live data.
import { HttpError, type Req } from '../../http/types.ts';

export interface Owner { project: string; sandbox: boolean }

export function owner(req: Req): Owner {
  // Routes here always declare a scope, so the core has authenticated the key already.
  if (!req.key) throw new HttpError(401, 'unauthorized', 'An API key is required.');
  return { project: req.key.project, sandbox: req.key.test };
}

export const notFound = (what: string, id: string) =>
  new HttpError(404, 'not_found', `No ${what} '${id.slice(0, 80)}' in this project.`);
