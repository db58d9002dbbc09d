// Type declarations for the untyped npm packages guidance uses.
declare module 'osrm-text-instructions' {
  interface Compiler { compile(language: string, step: unknown, opts?: { legIndex?: number; legCount?: number }): string }
  const factory: (version: 'v5') => Compiler;
  export default factory;
}
declare module 'osrm-text-instructions/languages.js' {
  const languages: { supportedCodes: string[]; instructions: Record<string, unknown> };
  export default languages;
}
