import { districtByCode, type OutbreakCrop } from '@kutu/contract';
import type { ModuleDeps } from '../../deps.ts';
import { message } from '../../i18n/i18n.ts';
import { smsMessage } from '../../i18n/sms-texts.ts';
import type { BulkTell } from '../../lib/deliverer.ts';
import type { OutbreakRepo } from './outbreak.repo.ts';

/** The job queue that tells farmers and experts about a new alert (in the worker). */
export const OUTBREAK_ALERT_QUEUE = 'outbreak-alert';
/**
 * Recipients whose messages one transaction of an alert's fan-out writes: a short transaction, and a
 * restart after a crash loses at most one step. The rows are written inside the database, so the step
 * no longer bounds this process's memory.
 */
export const FAN_OUT_STEP = 5000;

/** What an alert tells a farmer (of the district, or next to it) or an expert, but for who it goes `to`. */
function alertMessage(
  alert: { id: number; district: string; crop: string; sourceDistrict: string; raisedAt: Date | string },
  role: 'farmer' | 'expert',
): BulkTell {
  const params = {
    crop: message(`outbreak.crops.${alert.crop as OutbreakCrop}`),
    district: districtByCode(alert.district)?.name ?? alert.district,
    source: districtByCode(alert.sourceDistrict)?.name ?? alert.sourceDistrict,
  };
  const farmer = role === 'farmer';
  const neighbour = alert.district !== alert.sourceDistrict;
  const sms = farmer ? (neighbour ? 'outbreak.alert.smsNeighbour' : 'outbreak.alert.sms') : 'outbreak.alert.expertSms';
  return {
    key: `outbreak:${alert.id}`,
    kind: 'alert',
    app: {
      type: 'outbreak_alert',
      text: message(farmer ? 'outbreak.alert.message' : 'outbreak.alert.expert', params),
      data: {
        district: alert.district,
        crop: alert.crop,
        source_district: alert.sourceDistrict,
        raised_at: new Date(alert.raisedAt).toISOString(),
      },
    },
    sms: smsMessage(sms, params),
  };
}

/** Telling an alert's recipients, through the outbox (docs/decisions/0050). */
export function createAlertDelivery(deps: Pick<ModuleDeps, 'clock' | 'jobs' | 'delivery'>, repo: OutbreakRepo) {
  const { clock } = deps;
  /**
   * Tells an alert's farmers and experts (docs/decisions/0050): a fan-out in steps of `FAN_OUT_STEP`
   * recipients, each one transaction that writes their messages and moves the alert's progress, under
   * the alert's lock. A job run again (a worker died) goes on where the last committed step ended.
   */
  async function deliver(alertId: number) {
    for (;;) {
      const finished = await deps.delivery.transaction(async (tx, _tell, tellEach) => {
        const alert = await repo.lockAlert(tx, alertId);
        if (!alert || alert.deliveredAt) return true;
        // One message per role: the outbox writes every recipient's rows from the query, in the database.
        const { told, last } = await tellEach(
          repo.recipients(alert.district, alert.crop, alert.toldThrough, FAN_OUT_STEP),
          { farmer: alertMessage(alert, 'farmer'), expert: alertMessage(alert, 'expert') },
        );
        const done = told < FAN_OUT_STEP;
        await repo.told(tx, alertId, last ?? alert.toldThrough, done ? clock.now() : null);
        return done;
      });
      if (finished) return;
    }
  }

  /** The fan-outs a dead worker left unfinished: queued again when a worker starts. */
  async function resumeDeliveries() {
    for (const { id } of await repo.unfinishedAlerts()) await deps.jobs.send(OUTBREAK_ALERT_QUEUE, { alertId: id });
  }

  return { deliver, resumeDeliveries };
}
