/** One configuration value as the configurations list shows it. */
export interface ConfigEntry {
  Name?: string;
  Value?: string;
  Description?: string;
}

/**
 * The entries of a `GET /configurations/list` answer. The document does not show that answer (the
 * catalog types it `unknown`), so it is read field by field: a list of objects with text fields is
 * shown, anything else is not guessed at.
 */
export function configEntries(value: unknown): ConfigEntry[] {
  const data = typeof value === 'object' && value !== null && 'Data' in value ? value.Data : undefined;
  if (!Array.isArray(data)) return [];
  const out: ConfigEntry[] = [];
  for (const item of data as unknown[]) {
    if (typeof item !== 'object' || item === null) continue;
    const entry: ConfigEntry = {};
    for (const field of ['Name', 'Value', 'Description'] as const) {
      const v: unknown = (item as Record<string, unknown>)[field];
      if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') entry[field] = String(v);
    }
    out.push(entry);
  }
  return out;
}
