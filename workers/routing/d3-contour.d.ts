// The part of d3-contour (no bundled types) that isochrone.ts uses.
declare module 'd3-contour' {
  export interface ContourMultiPolygon { type: 'MultiPolygon'; value: number; coordinates: number[][][][] }
  export interface Contours {
    size(s: [number, number]): Contours;
    thresholds(t: number[]): Contours;
    (values: ArrayLike<number>): ContourMultiPolygon[];
  }
  export function contours(): Contours;
}
