import { boundaryOf } from '@kutu/contract/boundaries';
import type { OfficerWeek } from '@kutu/contract';

type Point = [number, number];
type Ring = Point[];
interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Districts that are islands in Lake Victoria: their boundary is the stretch of lake around the islands
 * (Kalangala's is a rectangle of water), so they are drawn as water and named "(islands)" rather than as
 * a block of land.
 */
const ISLAND_DISTRICTS = new Set(['UG-101', 'UG-120']);

/** A boundary's outer rings (a Polygon's first ring, each MultiPolygon part's first ring). */
function rings(code: string): Ring[] {
  const g = boundaryOf(code);
  if (!g) return [];
  if (g.type === 'Polygon') return [(g.coordinates as Ring[])[0]!];
  return (g.coordinates as Ring[][]).map((p) => p[0]!);
}

/** Whether `p` lies inside one of `rings` (even-odd rule). */
function inside([x, y]: Point, shape: Ring[]): boolean {
  let within = false;
  for (const ring of shape) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi, yi] = ring[i]!;
      const [xj, yj] = ring[j]!;
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) within = !within;
    }
  }
  return within;
}

/** The distance from `p` to the nearest edge of `rings`. */
function edgeDistance([x, y]: Point, shape: Ring[]): number {
  let best = Number.POSITIVE_INFINITY;
  for (const ring of shape) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [x1, y1] = ring[j]!;
      const [x2, y2] = ring[i]!;
      const dx = x2 - x1;
      const dy = y2 - y1;
      const t = dx || dy ? Math.max(0, Math.min(1, ((x - x1) * dx + (y - y1) * dy) / (dx * dx + dy * dy))) : 0;
      best = Math.min(best, Math.hypot(x - (x1 + t * dx), y - (y1 + t * dy)));
    }
  }
  return best;
}

/**
 * Where a district's name may go, best first: points of a grid over its drawn shape that lie inside it and
 * in no other district drawn over it, the farthest from its edges first (Kampala sits in a notch of
 * Wakiso: the middle of Wakiso's outline is Kampala).
 */
function labelSpots(shape: Ring[], others: Ring[][]): Point[] {
  const xs = shape.flat().map((p) => p[0]);
  const ys = shape.flat().map((p) => p[1]);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const steps = 14;
  const spots: { p: Point; score: number }[] = [];
  for (let i = 0; i <= steps; i++) {
    for (let j = 0; j <= steps; j++) {
      const p: Point = [
        minX + ((maxX - minX) * (i + 0.5)) / (steps + 1),
        minY + ((maxY - minY) * (j + 0.5)) / (steps + 1),
      ];
      if (!inside(p, shape) || others.some((o) => inside(p, o))) continue;
      spots.push({ p, score: edgeDistance(p, shape) });
    }
  }
  return spots.sort((a, b) => b.score - a.score).map((s) => s.p);
}

const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/**
 * The district (orange when an alert is open or cases were confirmed, else green) among its neighbours
 * (red with an alert, grey otherwise; island districts as water), drawn with pdfkit's vector paths inside
 * the box; each named once, where no other name is (own district first, then the smallest), inside its own
 * shape where there is room, else the nearest free place. Districts without a boundary of their own are drawn with their parent's
 * (contract boundaries). `islands` writes an island district's name ("Kalangala (islands)").
 */
export function drawDistrictMap(
  doc: PDFKit.PDFDocument,
  w: OfficerWeek,
  box: Box,
  islands: (name: string) => string = (name) => name,
) {
  const shapes = [
    { code: w.code, name: w.name, own: true, alert: w.alerts.some((a) => !a.ended_at), rings: rings(w.code) },
    ...w.neighbours.map((n) => ({ code: n.code, name: n.name, own: false, alert: n.alert, rings: rings(n.code) })),
  ].filter((s) => s.rings.length > 0);
  const points = shapes.flatMap((s) => s.rings.flat());
  if (points.length === 0) return false;
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  // Degrees near the equator: one scale for both axes keeps the shapes true.
  const scale = Math.min(box.width / (maxX - minX || 1), box.height / (maxY - minY || 1));
  const at = ([lon, lat]: Point): Point => [box.x + (lon - minX) * scale, box.y + (maxY - lat) * scale];
  const drawn = shapes.map((s) => ({
    ...s,
    island: ISLAND_DISTRICTS.has(s.code),
    page: s.rings.map((r) => r.map(at)),
  }));
  const confirmed = w.crops.reduce((a, c) => a + c.confirmed, 0);
  // Neighbours first, the district on top.
  for (const s of [...drawn.filter((x) => !x.own), ...drawn.filter((x) => x.own)]) {
    for (const ring of s.page) {
      const [first, ...rest] = ring;
      doc.moveTo(...first!);
      for (const p of rest) doc.lineTo(...p);
      doc.closePath();
    }
    const land = s.own ? (s.alert || confirmed > 0 ? '#f59e0b' : '#86efac') : s.alert ? '#fca5a5' : '#e5e7eb';
    if (s.island) {
      // Water, outlined in the district's colour when it is the officer's or has an alert.
      doc.lineWidth(s.own || s.alert ? 1.6 : 0.5).fillAndStroke('#dbeafe', s.own || s.alert ? land : '#60a5fa');
    } else doc.lineWidth(s.own ? 1.2 : 0.5).fillAndStroke(land, '#374151');
  }
  const placed: Box[] = [];
  const area = (s: (typeof drawn)[number]) =>
    s.page.reduce(
      (a, ring) =>
        a +
        Math.abs(
          ring.reduce(
            (b, [x, y], i) => b + x * ring[(i + 1) % ring.length]![1] - ring[(i + 1) % ring.length]![0] * y,
            0,
          ),
        ) /
          2,
      0,
    );
  // The officer's district first, then the smallest: a large district has room for its name anywhere.
  const order = [...drawn].sort((a, b) => Number(b.own) - Number(a.own) || area(a) - area(b));
  for (const s of order) {
    const size = s.own ? 8 : 6;
    const name = s.island ? islands(s.name) : s.name;
    doc.fontSize(size);
    const width = doc.widthOfString(name) + 2;
    const height = size + 1;
    const labelAt = ([x, y]: Point): Box => ({
      x: Math.min(Math.max(x - width / 2, box.x), box.x + box.width - width),
      y: Math.min(Math.max(y - height / 2, box.y), box.y + box.height - height),
      width,
      height,
    });
    // The officer's district, drawn on top, keeps its ground for its own name (unless both share a boundary).
    const own = drawn.find((o) => o.own);
    const over = !s.own && own && boundaryOf(own.code) !== boundaryOf(s.code) ? [own.page] : [];
    const spots = labelSpots(s.page, over).map(labelAt);
    // No free room inside (a small district among named ones): the nearest free place around its best spot.
    const best = spots[0] ?? labelAt(at(s.rings[0]![0]!));
    const around = [1, 2, 3, 4, 5, 6].flatMap((step) =>
      [0, 1, 2, 3, 4, 5, 6, 7].map((k) =>
        labelAt([
          best.x + width / 2 + Math.cos((k * Math.PI) / 4) * step * height,
          best.y + height / 2 + Math.sin((k * Math.PI) / 4) * step * height,
        ]),
      ),
    );
    const spot = [...spots, ...around].find((b) => !placed.some((p) => overlaps(b, p))) ?? best;
    placed.push(spot);
    doc.fillColor('#111').text(name, spot.x + 1, spot.y, { width, align: 'center', lineBreak: false });
  }
  return true;
}
