// JSON nesting depth, measured on the text before it is parsed: JSON.parse of deeply nested
// arrays costs far more main-thread time than a linear scan, and no endpoint takes input
// nested deeper than a GeoJSON polygon inside a Feature inside a batch.
export const MAX_JSON_DEPTH = 32;

/** Whether the text nests objects/arrays deeper than `max` (strings are skipped, escapes honoured). */
export function tooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > max) return true;
    } else if (c === 93 /* ] */ || c === 125 /* } */) depth--;
  }
  return false;
}
