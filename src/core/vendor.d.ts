// Type declarations for untyped npm packages (guidance: instruction phrasing, encoded polylines).
declare module 'osrm-text-instructions' {
  interface Compiler { compile(language: string, step: unknown, opts?: { legIndex?: number; legCount?: number }): string }
  const factory: (version: 'v5') => Compiler;
  export default factory;
}
declare module 'osrm-text-instructions/languages.js' {
  const languages: { supportedCodes: string[]; instructions: Record<string, unknown> };
  export default languages;
}
declare module '@mapbox/polyline' {
  const polyline: {
    encode(coords: [number, number][], precision?: number): string;
    decode(s: string, precision?: number): [number, number][];
  };
  export default polyline;
}
