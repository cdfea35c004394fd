import { z } from 'zod';

/** A check's severity, least first. Its own module: alert rules read it without the baseline's vocabulary and the catalog. */
export const SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export const severitySchema = z.enum(SEVERITIES);
export type Severity = z.infer<typeof severitySchema>;
