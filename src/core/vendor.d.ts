// Type declarations for untyped npm packages (encoded polylines).
declare module '@mapbox/polyline' {
  const polyline: {
    encode(coords: [number, number][], precision?: number): string;
    decode(s: string, precision?: number): [number, number][];
  };
  export default polyline;
}
