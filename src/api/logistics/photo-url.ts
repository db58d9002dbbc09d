// The POD photo address. The service never fetches it, but callers and dispute reviewers will,
// so only public https addresses are accepted (src/net/public-address.ts says which).
import { InvalidField } from '../../core/errors.ts';
import { publicHttpsUrl } from '../../net/public-address.ts';
import { invalid } from './validate.ts';

export function checkPhotoUrl(raw: string, field = 'photo_url'): string {
  try {
    return publicHttpsUrl(raw, field);
  } catch (e) {
    if (e instanceof InvalidField) throw invalid(e.field, e.why);
    throw e;
  }
}
