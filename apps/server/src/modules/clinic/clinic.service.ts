import { createHash } from 'node:crypto';
import type {
  AnalysisCrop,
  AnalysisResult,
  ClinicFarmerFieldsQuery,
  ClinicFieldChoicePage,
  ClinicRecord,
  ClinicRecordPage,
  ClinicVerdictBody,
  ClinicVisit,
  clinicVisitFields,
  ContentLanguage,
  GrowthStage,
  PageQuery,
  ReviewVerdict,
  RustClass,
} from '@kutu/contract';
import type { z } from 'zod';
import type { ModuleDeps } from '../../deps.ts';
import type { Db } from '../../db/client.ts';
import { message } from '../../i18n/i18n.ts';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.ts';
import { csvLine } from '../../lib/csv.ts';
import type { UploadedImage } from '../../lib/image-upload.ts';
import { pageWindow, toPage } from '../../lib/pagination.ts';
import type { AccessClaims } from '../../lib/tokens.ts';
import type { AnalysisService } from '../analysis/analysis.service.ts';
import type { SignupService } from '../auth/signup.service.ts';
import type { FieldsService } from '../fields/fields.service.ts';
import type { WalksService } from '../fields/walks.service.ts';
import type { FollowUpService } from '../followup/followup.service.ts';
import type { ReviewService } from '../review/review.service.ts';
import { modelAnswerOf } from '../review/review.service.ts';
import { createClinicRepo, type RecordRow, type VisitRow } from './clinic.repo.ts';
import { resultTell } from './result-sms.ts';
import { createVisitField } from './visit-field.ts';

/** "A plant clinic's farmer who agreed to SMS", as a condition of another module's query (a rust advisory). */
export { clinicSmsFarmerSql } from './facts.repo.ts';
/** Plant-clinic visits as an officer's week counts them (extension's `ExtensionSources`, through services.ts). */
export { visitFacts } from './facts.repo.ts';

type Fields = z.output<typeof clinicVisitFields>;

/** The columns of the CSV, in PlantwisePlus's order: who, where, what crop, what was seen, what to do. */
export const CLINIC_CSV_COLUMNS = [
  'date',
  'farmer_phone',
  'district',
  'crop',
  'field',
  'variety',
  'growth_stage',
  'share_affected_percent',
  'plants_looked',
  'plants_with_rust',
  'symptoms',
  'kutu_diagnosis',
  'diagnosis',
  'recommendation',
  'expert',
] as const;
const CSV_BATCH = 500;

/** `+256*****456`: the country code and the last three digits (the CSV leaves Kutu: docs/decisions/0053). */
export const maskPhone = (phone: string) =>
  `${phone.slice(0, 4)}${'*'.repeat(Math.max(0, phone.length - 7))}${phone.slice(-3)}`;

const trainingCrops: Record<string, string> = { maize: 'MAIZE', beans: 'BEANS' };

/** Kutu's answer in words for the records (English, like the rest of the PlantwisePlus fields). */
function diagnosisText(results: AnalysisResult[]): string {
  return results
    .map((a) => {
      const answer = modelAnswerOf(a);
      return answer === 'not_leaf' || answer === 'unsure' ? answer : `${answer} ${Math.round(a.confidence * 100)}%`;
    })
    .join('; ');
}

/**
 * Plant clinic visits (docs/decisions/0053): an approved expert records a diagnosis for a farmer without
 * a smartphone. The photos are the farmer's analyses (the analysis service), the expert's answer is their
 * review verdict (the review service: training sample, outbreak case), the follow-up is the farmer's
 * reminder (the follow-up service), the field and the walk the expert counted are the farmer's (the fields
 * and walks services, visit-field.ts), and the farmer is told by one SMS.
 */
export function createClinicService(
  deps: ModuleDeps,
  uses: {
    analysis: AnalysisService;
    review: ReviewService;
    followUps: FollowUpService;
    signup: SignupService;
    fields: FieldsService;
    walks: WalksService;
  },
) {
  const repo = createClinicRepo(deps.db);
  const { analysis, review, followUps, signup } = uses;
  const visitField = createVisitField(uses);

  /** The farmer of the number: an existing farmer's account, or a new phone-only one made with consent. */
  async function farmerFor(f: Fields, crop: AnalysisCrop): Promise<{ id: number; created: boolean }> {
    const found = await repo.accountByPhone(f.phone_number);
    if (found) {
      if (found.role !== 'farmer')
        throw conflict('errors.clinic.notAFarmer', { phone_number: 'errors.clinic.notAFarmer' });
      return { id: found.id, created: false };
    }
    if (!f.farmer_name || !f.district || !f.language) {
      throw badRequest('errors.clinic.newFarmer', {
        ...(!f.farmer_name && { farmer_name: 'errors.clinic.newFarmer' }),
        ...(!f.district && { district: 'errors.clinic.newFarmer' }),
        ...(!f.language && { language: 'errors.clinic.newFarmer' }),
      });
    }
    if (!f.consent) throw badRequest('errors.clinic.consent', { consent: 'errors.clinic.consent' });
    try {
      const user = await signup.createPhoneOnlyFarmer(
        {
          name: f.farmer_name,
          phone: f.phone_number,
          language: f.language,
          district: f.district,
          crops: trainingCrops[crop] ? [trainingCrops[crop]] : [],
        },
        { sms: f.consent_sms, training: f.consent_training },
      );
      return { id: user.id, created: true };
    } catch (err) {
      // The same visit sent twice at once: the other request made the account.
      const made = err instanceof AppError && err.status === 409 && (await repo.accountByPhone(f.phone_number));
      if (made && made.role === 'farmer') return { id: made.id, created: false };
      throw err;
    }
  }

  /** The visit of this expert; another's reads as missing. */
  async function own(who: AccessClaims, id: number): Promise<VisitRow> {
    const row = await repo.find(id);
    if (!row || row.expertId !== who.userId) throw notFound('errors.clinic.notFound');
    return row;
  }

  /** The visit's field as the farmer's (null once erased). */
  const fieldOf = (row: VisitRow) =>
    row.fieldId === null
      ? Promise.resolve(null)
      : uses.fields.get({ userId: row.farmerId }, row.fieldId).catch(() => null);

  /** When Kutu will ask the farmer about the field: the first photo's reminder, else the field's (a walk's). */
  async function followUpAt(row: VisitRow, field: { remind_at: string | null } | null): Promise<string | null> {
    const views = await followUps.views(row.analysisIds);
    return row.analysisIds.map((id) => views.get(id)?.remind_at).find(Boolean) ?? field?.remind_at ?? null;
  }

  async function view(row: VisitRow, language: ContentLanguage): Promise<ClinicVisit> {
    const [farmer, results, field, walk] = await Promise.all([
      repo.account(row.farmerId),
      analysis.resultsByIds(row.analysisIds, language),
      fieldOf(row),
      visitField.walkOf(row.farmerId, row.walkId),
    ]);
    if (!farmer) throw notFound('errors.clinic.notFound');
    return {
      id: row.id,
      created_at: row.createdAt.toISOString(),
      farmer: {
        id: farmer.id,
        // The name typed at the clinic, not the username made from it.
        name: farmer.name ?? farmer.username,
        phone: farmer.phone,
        district: farmer.district,
        language: farmer.language,
        created_here: row.consentAt !== null,
      },
      crop: row.crop,
      variety: row.variety,
      growth_stage: row.growthStage as GrowthStage,
      share_affected: row.shareAffected,
      symptoms: row.symptoms,
      field: field && { id: field.id, name: field.name },
      walk,
      analyses: row.analysisIds.flatMap((id) => {
        const found = results.get(id);
        if (!found) return [];
        const { userId: _farmer, ...result } = found;
        return [result];
      }),
      verdict: row.verdict,
      severity: row.severity,
      recommendation: row.recommendation,
      decided_at: row.decidedAt?.toISOString() ?? null,
      result_sms_at: row.resultSmsAt?.toISOString() ?? null,
      follow_up_at: await followUpAt(row, field),
    };
  }

  async function records(rows: RecordRow[]): Promise<ClinicRecord[]> {
    const results = await analysis.resultsByIds(rows.flatMap((r) => r.visit.analysisIds));
    return rows.map(({ visit: v, ...r }) => ({
      id: v.id,
      created_at: v.createdAt.toISOString(),
      farmer_name: r.farmerName,
      farmer_phone: r.farmerPhone,
      district: r.district,
      crop: v.crop,
      field: r.fieldName,
      variety: v.variety,
      growth_stage: v.growthStage as GrowthStage,
      share_affected: v.shareAffected,
      plants_looked: r.plantsLooked,
      plants_rust: r.plantsRust,
      symptoms: v.symptoms,
      kutu_diagnosis: diagnosisText(v.analysisIds.flatMap((id) => results.get(id) ?? [])),
      verdict: v.verdict,
      recommendation: v.recommendation,
      expert: r.expertName,
    }));
  }

  /** Writes the result SMS once per visit: claimed with result_sms_at in the transaction that writes it (0050). */
  async function tellOnce(row: VisitRow, followUp: boolean): Promise<void> {
    const { verdict } = row;
    if (!verdict) return;
    const walk = await visitField.walkOf(row.farmerId, row.walkId);
    await deps.delivery.transaction(async (tx, tell) => {
      if (!(await createClinicRepo(tx as unknown as Db).claimResultSms(row.id, deps.clock.now()))) return;
      const result = { visitId: row.id, farmerId: row.farmerId, crop: row.crop, verdict, walk };
      await tell(resultTell({ ...result, recommendation: row.recommendation, followUp }, deps.config.phone.ussdCode));
    });
  }

  return {
    /**
     * Records a visit, its field and the walk the expert counted, and diagnoses each photo as the farmer's
     * analysis of that field. With the expert's idempotency key a retry answers with the first visit and makes
     * nothing new.
     */
    async record(
      who: AccessClaims,
      fields: Fields,
      images: UploadedImage[],
      opts: { idempotencyKey?: string; language: ContentLanguage },
    ): Promise<{ visit: ClinicVisit; created: boolean }> {
      const key = opts.idempotencyKey;
      const earlier = key ? await repo.byKey(who.userId, key) : undefined;
      if (earlier) return { visit: await view(earlier, opts.language), created: false };
      const farmer = await farmerFor(fields, fields.crop);
      const field = await visitField.fieldFor(farmer.id, fields);
      // The walk before the photos: its reminder (by phone) is the field's, which a photo then leaves alone.
      const walk = await visitField.recordWalk(who.userId, farmer.id, field.id, fields, key);
      const now = deps.clock.now();
      // Each photo's own key (per farmer, as analyses keep them): a concurrent retry adds no analysis.
      const photoKey = (i: number) =>
        key && `clinic-${createHash('sha256').update(`${who.userId}\n${key}`).digest('hex').slice(0, 40)}-${i}`;
      const analysisIds: number[] = [];
      for (const [i, image] of images.entries()) {
        const { result } = await analysis.analyse({ userId: farmer.id, role: 'farmer' }, image, {
          crop: fields.crop,
          fieldId: field.id,
          idempotencyKey: photoKey(i) || undefined,
          decodeAs: who.userId,
          // No reminder on Kutu's answer alone: the expert's verdict opens it, answered by USSD (decide()).
          // A visit left before the verdict would otherwise ask a basic phone about it by web link.
          followUp: false,
          language: opts.language,
        });
        analysisIds.push(result.id);
        // Held for this expert while they answer, so another expert does not decide it from the queue.
        await review.claim(who, result.id).catch(() => undefined);
      }
      const row = await repo.insert({
        expertId: who.userId,
        farmerId: farmer.id,
        idempotencyKey: key ?? null,
        crop: fields.crop,
        fieldId: field.id,
        walkId: walk?.id ?? null,
        variety: fields.variety,
        growthStage: fields.growth_stage,
        shareAffected: fields.share_affected ?? null,
        symptoms: fields.symptoms,
        analysisIds,
        consentAt: farmer.created ? now : null,
        createdAt: now,
      });
      const visit = row ?? (key ? await repo.byKey(who.userId, key) : undefined);
      if (!visit) throw new Error('Idempotency conflict without a stored clinic visit');
      return { visit: await view(visit, opts.language), created: Boolean(row) };
    },

    /**
     * The fields of the farmer of a number, for the visit form's choice: none for a number without an account
     * or of another role (the form then offers a new field, as for a farmer without fields).
     */
    async farmerFields(query: ClinicFarmerFieldsQuery): Promise<ClinicFieldChoicePage> {
      const found = await repo.accountByPhone(query.phone_number);
      return visitField.choices(found?.role === 'farmer' ? found.id : undefined, query);
    },

    async get(who: AccessClaims, id: number, language: ContentLanguage): Promise<ClinicVisit> {
      return view(await own(who, id), language);
    },

    /**
     * The expert confirms or corrects Kutu: the verdict of every photo through the review service (a
     * training sample, a confirmed or removed outbreak case), the field's follow-up, then one result SMS.
     * A retry with the same verdict answers as the first; another verdict is refused (409).
     */
    async decide(
      who: AccessClaims,
      id: number,
      body: ClinicVerdictBody,
      language: ContentLanguage,
    ): Promise<ClinicVisit> {
      const before = await own(who, id);
      const verdict = body.verdict as ReviewVerdict;
      if (before.verdict && before.verdict !== verdict) {
        throw conflict(message('errors.clinic.alreadyDecided', { verdict: before.verdict }));
      }
      const severity = verdict === 'common_rust' ? (body.severity ?? null) : null;
      const recommendation = body.recommendation?.trim() || null;
      // The visit's decision is taken first: of two requests at once, one gives the photos their verdict.
      const won = await repo.decide(id, { verdict, severity, recommendation, decidedAt: deps.clock.now() });
      if (won) {
        try {
          for (const analysisId of won.analysisIds) {
            // The farmer hears it once, by the visit's result SMS, not once per photo.
            const decision = { verdict, note: recommendation ?? undefined, severity: severity ?? undefined };
            await review.decide(who, analysisId, decision, false);
          }
        } catch (err) {
          await repo.undecide(id);
          throw err;
        }
      }
      const decided = won ?? (await own(who, id));
      if (decided.verdict !== verdict) {
        throw conflict(message('errors.clinic.alreadyDecided', { verdict: decided.verdict ?? '' }));
      }
      const rust = decided.verdict === 'common_rust';
      const first = decided.analysisIds[0];
      if (first !== undefined) {
        const row = await analysis.facts(first);
        await followUps.afterVerdict({ ...row, rustClass: row.rustClass as RustClass | null }, rust);
      }
      const waiting = await followUpAt(decided, await fieldOf(decided));
      await tellOnce(decided, Boolean(waiting));
      return view(await own(who, id), language);
    },

    async list(who: AccessClaims, query: PageQuery): Promise<ClinicRecordPage> {
      const { rows, total } = await repo.page(who.userId, pageWindow(query));
      return toPage(await records(rows), total, query);
    },

    /** The expert's records as CSV, newest first, read in batches; phone numbers masked. */
    async *csv(who: AccessClaims): AsyncGenerator<string> {
      yield csvLine([...CLINIC_CSV_COLUMNS]);
      let before = 2_147_483_647;
      for (;;) {
        const rows = await repo.batch(who.userId, before, CSV_BATCH);
        for (const r of await records(rows)) {
          yield csvLine([
            r.created_at.slice(0, 10),
            maskPhone(r.farmer_phone),
            r.district ?? '',
            r.crop,
            r.field ?? '',
            r.variety,
            r.growth_stage,
            r.share_affected ?? '',
            r.plants_looked ?? '',
            r.plants_rust ?? '',
            r.symptoms,
            r.kutu_diagnosis,
            r.verdict ?? '',
            r.recommendation ?? '',
            r.expert,
          ]);
        }
        if (rows.length < CSV_BATCH) return;
        before = rows[rows.length - 1].visit.id;
      }
    },
  };
}
