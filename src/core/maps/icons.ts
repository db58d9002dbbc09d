// Map icons drawn as canvas paths: the sprite sheets (built once) and the static-map renderer
// draw the same shapes. `ctx` is any CanvasRenderingContext2D-like object; (0,0)-(s,s) is the icon box.
export const ICONS = ['hospital', 'health', 'pharmacy', 'bus_stop', 'airport', 'port', 'marker'] as const;
export type IconName = (typeof ICONS)[number];
export const ICON_SIZE = 18;
/** Default colour of a marker pin. */
export const MARKER_COLOUR = '#e53935';

type Ctx = {
  beginPath(): void; closePath(): void; moveTo(x: number, y: number): void; lineTo(x: number, y: number): void;
  arc(x: number, y: number, r: number, a: number, b: number): void; fill(): void; stroke(): void; fillRect(x: number, y: number, w: number, h: number): void;
  fillStyle: any; strokeStyle: any; lineWidth: number;
};

function disc(ctx: Ctx, s: number, fill: string) {
  ctx.beginPath();
  ctx.arc(s / 2, s / 2, s / 2 - s / 18, 0, Math.PI * 2);
  ctx.fillStyle = fill; ctx.fill();
  ctx.lineWidth = s / 12; ctx.strokeStyle = '#ffffff'; ctx.stroke();
}
function cross(ctx: Ctx, s: number, colour: string) {
  const a = s * 0.28, b = s * 0.12;
  ctx.fillStyle = colour;
  ctx.fillRect(s / 2 - b, s / 2 - a, 2 * b, 2 * a);
  ctx.fillRect(s / 2 - a, s / 2 - b, 2 * a, 2 * b);
}

/** Draw one icon into the box (0,0)-(s,s). */
export function drawIcon(ctx: Ctx, name: IconName, s: number, colour?: string): void {
  switch (name) {
    case 'hospital': disc(ctx, s, '#d32f2f'); cross(ctx, s, '#ffffff'); break;
    case 'health': disc(ctx, s, '#e57373'); cross(ctx, s, '#ffffff'); break;
    case 'pharmacy': disc(ctx, s, '#2e7d32'); cross(ctx, s, '#ffffff'); break;
    case 'bus_stop': {
      disc(ctx, s, '#1565c0');
      ctx.fillStyle = '#ffffff';
      ctx.fillRect(s * 0.3, s * 0.28, s * 0.4, s * 0.36);
      ctx.fillStyle = '#1565c0';
      ctx.fillRect(s * 0.35, s * 0.33, s * 0.3, s * 0.12);
      ctx.fillStyle = '#ffffff';
      ctx.fillRect(s * 0.32, s * 0.64, s * 0.08, s * 0.08); ctx.fillRect(s * 0.6, s * 0.64, s * 0.08, s * 0.08);
      break;
    }
    case 'airport': {
      disc(ctx, s, '#5e35b1');
      ctx.fillStyle = '#ffffff';
      ctx.beginPath();
      const c = s / 2;
      ctx.moveTo(c, s * 0.2); ctx.lineTo(c + s * 0.06, s * 0.42); ctx.lineTo(s * 0.8, s * 0.55); ctx.lineTo(c + s * 0.06, s * 0.55);
      ctx.lineTo(c + s * 0.04, s * 0.72); ctx.lineTo(c + s * 0.14, s * 0.8); ctx.lineTo(c - s * 0.14, s * 0.8); ctx.lineTo(c - s * 0.04, s * 0.72);
      ctx.lineTo(c - s * 0.06, s * 0.55); ctx.lineTo(s * 0.2, s * 0.55); ctx.lineTo(c - s * 0.06, s * 0.42);
      ctx.closePath(); ctx.fill();
      break;
    }
    case 'port': {
      disc(ctx, s, '#00838f');
      ctx.strokeStyle = '#ffffff'; ctx.lineWidth = s / 10;
      ctx.beginPath(); ctx.moveTo(s / 2, s * 0.25); ctx.lineTo(s / 2, s * 0.75); ctx.stroke();
      ctx.beginPath(); ctx.arc(s / 2, s * 0.5, s * 0.25, Math.PI * 0.15, Math.PI * 0.85); ctx.stroke();
      ctx.beginPath(); ctx.moveTo(s * 0.36, s * 0.34); ctx.lineTo(s * 0.64, s * 0.34); ctx.stroke();
      break;
    }
    case 'marker': {
      // A pin whose tip is the bottom centre of the box.
      ctx.fillStyle = colour ?? MARKER_COLOUR; ctx.strokeStyle = '#ffffff'; ctx.lineWidth = s / 14;
      ctx.beginPath();
      ctx.arc(s / 2, s * 0.38, s * 0.3, Math.PI * 0.8, Math.PI * 0.2);
      ctx.lineTo(s / 2, s * 0.98);
      ctx.closePath(); ctx.fill(); ctx.stroke();
      ctx.beginPath(); ctx.arc(s / 2, s * 0.38, s * 0.11, 0, Math.PI * 2); ctx.fillStyle = '#ffffff'; ctx.fill();
      break;
    }
  }
}
