// Which side of the road traffic keeps to, by country: the African countries that drive on the left
// (the former British colonies of southern and eastern Africa, and Mozambique); every other African
// country drives on the right. Checked against the Vienna Convention declarations and national
// highway codes as listed by Wikipedia's "Left- and right-hand traffic" (2026).
export const LEFT_HAND_TRAFFIC = new Set(['BW', 'KE', 'LS', 'MU', 'MW', 'MZ', 'NA', 'SC', 'SZ', 'TZ', 'UG', 'ZA', 'ZM', 'ZW']);

export type DrivingSide = 'left' | 'right';

export function drivingSideOf(country: string): DrivingSide {
  return LEFT_HAND_TRAFFIC.has(country.toUpperCase()) ? 'left' : 'right';
}
