// Public identifiers: a type prefix and 20 random base62 characters (~119 bits), so ids
// are unguessable and say what they name ("stp_…", "pod_…", "dsp_…", "zon_…", "avr_…").
import { randomBase62 } from '../../auth/keys.ts';

export const newId = (prefix: 'stp' | 'pod' | 'dsp' | 'zon' | 'avr') => `${prefix}_${randomBase62(20)}`;

/** A well-formed id of that type; anything else is answered 404 without a query. */
export const isId = (prefix: string, s: string) => s.length === prefix.length + 21 && s.startsWith(prefix + '_') && /^[0-9A-Za-z]+$/.test(s.slice(prefix.length + 1));
