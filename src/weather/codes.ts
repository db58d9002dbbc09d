// WMO weather interpretation codes (WW) as Open-Meteo documents them, with the text we answer.
const TEXT: Record<number, string> = {
  0: 'Clear sky', 1: 'Mainly clear', 2: 'Partly cloudy', 3: 'Overcast',
  45: 'Fog', 48: 'Depositing rime fog',
  51: 'Light drizzle', 53: 'Moderate drizzle', 55: 'Dense drizzle',
  56: 'Light freezing drizzle', 57: 'Dense freezing drizzle',
  61: 'Slight rain', 63: 'Moderate rain', 65: 'Heavy rain',
  66: 'Light freezing rain', 67: 'Heavy freezing rain',
  71: 'Slight snowfall', 73: 'Moderate snowfall', 75: 'Heavy snowfall', 77: 'Snow grains',
  80: 'Slight rain showers', 81: 'Moderate rain showers', 82: 'Violent rain showers',
  85: 'Slight snow showers', 86: 'Heavy snow showers',
  95: 'Thunderstorm', 96: 'Thunderstorm with slight hail', 99: 'Thunderstorm with heavy hail',
};

export function conditionText(code: number | null): string | null {
  if (code === null) return null;
  return TEXT[code] ?? `WMO code ${code}`;
}

/**
 * The code that best describes a day: the most severe one seen. WMO codes grow with severity
 * within Open-Meteo's list except fog (45/48) ranking below any precipitation, which holds here too.
 */
export function dominantCode(codes: (number | null)[]): number | null {
  let best: number | null = null;
  for (const c of codes) if (c !== null && (best === null || c > best)) best = c;
  return best;
}
