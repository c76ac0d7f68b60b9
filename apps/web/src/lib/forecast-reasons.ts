import type { TFunction } from 'i18next';
import type { RiskBasis, RiskLevel } from '@kutu/contract';
import { formatNumber } from './format.ts';

/*
 * Shared by the risk map's reasons (features/outbreak) and the forecast desk (features/forecast, decision
 * 0128): their strings are the outbreak part's, which both screens bring.
 */

/**
 * A day's level in plain words: the wet hours in the rust's band, where in the district they were (a point
 * other than the centre) and how many points had no weather, then the rust near it (places named only as the
 * map shows them).
 */
export function reasonsOf(basis: RiskBasis, level: RiskLevel, t: TFunction): string[] {
  if (level === 'unknown' || basis.wet_hours === null) return [t('outbreak.forecast.why.noWeather')];
  const [min, max] = basis.band;
  const out = [
    basis.wet_hours > 0
      ? t('outbreak.forecast.why.wet', {
          count: basis.wet_hours,
          min,
          max,
          run: basis.longest_run ?? 0,
          need: basis.infection_hours,
        })
      : t('outbreak.forecast.why.dry', { min, max }),
  ];
  // The point that drove the level, when it is not the centre (docs/decisions/0134).
  const p = basis.point;
  if (p?.direction) {
    const where = { km: formatNumber(Math.round(p.km)), direction: t(`outbreak.forecast.why.compass.${p.direction}`) };
    out.push(
      p.elevation === null
        ? t('outbreak.forecast.why.point', where)
        : t('outbreak.forecast.why.pointAt', { ...where, metres: formatNumber(p.elevation) }),
    );
  }
  if (basis.points_unknown)
    out.push(t('outbreak.forecast.why.pointsUnknown', { count: basis.points_unknown, of: basis.points }));
  if (basis.confirmed_here) out.push(t('outbreak.forecast.why.confirmedHere'));
  else if (basis.walked_rust_here) out.push(t('outbreak.forecast.why.walkedHere'));
  if (basis.walked_median != null)
    out.push(t('outbreak.forecast.why.walkedMedian', { share: Math.round(basis.walked_median * 100) }));
  if (basis.neighbours.length) out.push(t('outbreak.forecast.why.neighbours', { names: basis.neighbours.join(', ') }));
  if (basis.upwind.length) out.push(t('outbreak.forecast.why.upwind', { names: basis.upwind.join(', ') }));
  if (basis.unnamed_near) out.push(t('outbreak.forecast.why.unnamed'));
  const rustNear =
    basis.confirmed_here || basis.walked_rust_here || basis.neighbours.length > 0 || basis.unnamed_near === true;
  if (!rustNear) out.push(t('outbreak.forecast.why.noRust'));
  return out;
}
