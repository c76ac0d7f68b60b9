import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * This process's Prometheus metrics (prom-client). One registry per process: each web process and
 * worker is scraped on its own, and Prometheus sums across them.
 */
export const registry = new Registry();

export const httpRequests = new Histogram({
  name: 'kutu_http_request_duration_seconds',
  help: 'API requests by route, method and status code, with their duration',
  labelNames: ['route', 'method', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

export const analysesByOutcome = new Counter({
  name: 'kutu_analyses_total',
  help: 'Leaf analyses served by this process, by outcome (the class, unsure or not_leaf)',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export const modelInfo = new Gauge({
  name: 'kutu_model_info',
  help: 'The model version this process serves (value 1)',
  labelNames: ['version'] as const,
  registers: [registry],
});

export const queueDepth = new Gauge({
  name: 'kutu_job_queue_depth',
  help: 'Jobs waiting in each background queue (pg-boss), read at scrape time',
  labelNames: ['queue'] as const,
  registers: [registry],
});

export const trainingJobs = new Gauge({
  name: 'kutu_training_jobs',
  help: 'Retraining jobs by status, read from the database at scrape time',
  labelNames: ['status'] as const,
  registers: [registry],
});

export const messagesSent = new Counter({
  name: 'kutu_messages_total',
  help: 'Messages to people (outbox sends) by channel and outcome: sent, retried, failed (for good), skipped',
  labelNames: ['channel', 'outcome'] as const,
  registers: [registry],
});

export const messagesWaiting = new Gauge({
  name: 'kutu_messages',
  help: 'Outbox messages by channel and state (waiting, sending, failed), read from the database at scrape time',
  labelNames: ['channel', 'state'] as const,
  registers: [registry],
});
