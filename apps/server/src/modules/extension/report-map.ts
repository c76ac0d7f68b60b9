import { boundaryOf } from '@kutu/contract/boundaries';
import type { OfficerWeek } from '@kutu/contract';

type Ring = [number, number][];

/** A boundary's outer rings (a Polygon's first ring, each MultiPolygon part's first ring). */
function rings(code: string): Ring[] {
  const g = boundaryOf(code);
  if (!g) return [];
  if (g.type === 'Polygon') return [(g.coordinates as Ring[])[0]];
  return (g.coordinates as Ring[][]).map((p) => p[0]);
}

/**
 * The district (orange when an alert is open or cases were confirmed, else green) among its neighbours
 * (red with an alert, grey otherwise), drawn with pdfkit's vector paths inside the box; each named.
 * Districts without a boundary of their own are drawn with their parent's (contract boundaries).
 */
export function drawDistrictMap(
  doc: PDFKit.PDFDocument,
  w: OfficerWeek,
  box: { x: number; y: number; width: number; height: number },
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
  const at = ([lon, lat]: [number, number]): [number, number] => [
    box.x + (lon - minX) * scale,
    box.y + (maxY - lat) * scale,
  ];
  const confirmed = w.crops.reduce((a, c) => a + c.confirmed, 0);
  // Neighbours first, the district on top.
  for (const s of [...shapes.filter((x) => !x.own), ...shapes.filter((x) => x.own)]) {
    for (const ring of s.rings) {
      const [first, ...rest] = ring.map(at);
      doc.moveTo(...first);
      for (const p of rest) doc.lineTo(...p);
      doc.closePath();
    }
    const fill = s.own ? (s.alert || confirmed > 0 ? '#f59e0b' : '#86efac') : s.alert ? '#fca5a5' : '#e5e7eb';
    doc.lineWidth(s.own ? 1.2 : 0.5).fillAndStroke(fill, '#374151');
  }
  // Districts drawn with their parent's boundary share its centre: their names stack instead of overlapping.
  const namesAt = new Map<string, number>();
  for (const s of shapes) {
    const ring = s.rings.reduce((a, b) => (b.length > a.length ? b : a));
    const cx = ring.reduce((a, p) => a + p[0], 0) / ring.length;
    const cy = ring.reduce((a, p) => a + p[1], 0) / ring.length;
    const [px, py] = at([cx, cy]);
    const key = `${Math.round(px)},${Math.round(py)}`;
    const before = namesAt.get(key) ?? 0;
    namesAt.set(key, before + 1);
    doc
      .fillColor('#111')
      .fontSize(s.own ? 8 : 6)
      .text(s.name, px - 40, py - 3 + before * 8, { width: 80, align: 'center', lineBreak: false });
  }
  return true;
}
