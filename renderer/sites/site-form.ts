import { DEFAULT_SMART_MAX_AGE_HOURS, siteNameProblem } from '../../app/domain/site-rules.js';
import type { SiteEdit, SiteInput, SiteView } from '../../app/domain/site.js';

/*
 * The site dialogs' forms, derived from the site schemas in `app/domain/site.ts`: a form has one
 * input per field of the schema it fills (less the fields it names as not asked), and turns its
 * inputs into that schema's value through a map keyed by the schema's fields. A field added to or
 * renamed in a schema fails `npm run typecheck` here until the form handles it (or says why not).
 */

export type SitePatch = SiteEdit;

/** What an input holds for a schema value: a number (null while empty), a checkbox's state, or text (a list as comma-separated text). */
export type InputValue<V> = [NonNullable<V>] extends [number] ? number | null : [NonNullable<V>] extends [boolean] ? boolean : string;

/** A form over the fields of `T` less `NotAsked`: each field an input's value, none optional. */
export type FormOf<T, NotAsked extends keyof T = never> = { -readonly [K in Exclude<keyof T, NotAsked>]-?: InputValue<T[K]> };

type Checked<V> = { value: V } | { problem: string };

/**
 * Edit fields the edit form does not show: plain http to another host is allowed only when the
 * site is added, beside its warning (the store refuses a new http URL without it).
 */
type NotEdited = 'allowHttp';

/** The edit form's fields: the edit schema's. Numbers are null while their input is empty. */
export type SiteForm = FormOf<SiteEdit, NotEdited>;

/** A field of the edit form: its value as stored, that value as the input shows it, and the input turned into the edit's value. */
interface EditField<K extends keyof SiteForm> {
  stored(site: SiteView): NonNullable<SiteEdit[K]>;
  show(stored: NonNullable<SiteEdit[K]>): SiteForm[K];
  /** The edit's value, or the sentence the admin reads, with the contract's limits. */
  check(input: SiteForm[K]): Checked<NonNullable<SiteEdit[K]>>;
}

/** Tags from `a, b ,c`: trimmed, empty ones and repeats dropped, order kept. */
export function parseTags(text: string): string[] {
  return [...new Set(text.split(',').map((t) => t.trim()).filter(Boolean))];
}

const same = <V>(v: V): V => v;

function integerIn(min: number, max: number, problem: string): (v: number | null) => Checked<number> {
  return (v) => (v !== null && Number.isInteger(v) && v >= min && v <= max ? { value: v } : { problem });
}

/** Every field of the edit form, in the order the admin reads their problems. */
const EDIT_FIELDS: { [K in keyof SiteForm]: EditField<K> } = {
  name: {
    stored: (s) => s.name,
    show: same,
    check: (input) => {
      const name = input.trim();
      const problem = siteNameProblem(name);
      return problem ? { problem } : { value: name };
    },
  },
  baseUrl: {
    stored: (s) => s.baseUrl,
    show: same,
    check: (input) => {
      const baseUrl = input.trim();
      let url: URL;
      try {
        url = new URL(baseUrl);
      } catch {
        return { problem: 'the URL must be absolute, e.g. https://storage.example:8443' };
      }
      if (url.protocol !== 'https:' && url.protocol !== 'http:') return { problem: 'the URL must start with https:// (or http:// for loopback)' };
      return { value: baseUrl };
    },
  },
  username: {
    stored: (s) => s.username,
    show: same,
    check: (input) => (input.trim() ? { value: input.trim() } : { problem: 'a user name is required' }),
  },
  group: {
    // An empty group clears it (main stores a blank group as none).
    stored: (s) => s.group ?? '',
    show: same,
    check: (input) => (input.trim().length > 100 ? { problem: 'a group name has at most 100 characters' } : { value: input.trim() }),
  },
  tags: {
    stored: (s) => s.tags,
    show: (tags) => tags.join(', '),
    check: (input) => {
      const tags = parseTags(input);
      return tags.length > 50 || tags.some((t) => t.length > 50) ? { problem: 'at most 50 tags of at most 50 characters each' } : { value: tags };
    },
  },
  maxInFlight: {
    stored: (s) => s.polling.maxInFlight,
    show: same,
    check: integerIn(1, 64, 'requests in flight must be a whole number from 1 to 64'),
  },
  intervalSeconds: {
    stored: (s) => s.polling.intervalSeconds,
    show: same,
    check: integerIn(0, 86_400, 'the polling interval must be a whole number of seconds from 0 (on demand) to 86400'),
  },
  smartMaxAgeHours: {
    stored: (s) => s.polling.smartMaxAgeHours ?? DEFAULT_SMART_MAX_AGE_HOURS,
    show: same,
    check: integerIn(1, 8760, 'the SMART age must be a whole number of hours from 1 to 8760'),
  },
};

const EDIT_KEYS = Object.keys(EDIT_FIELDS) as Array<keyof SiteForm>;

/** The edit form of a site as stored. */
export function siteForm(site: SiteView): SiteForm {
  const form: Partial<Record<keyof SiteForm, unknown>> = {};
  for (const key of EDIT_KEYS) form[key] = shown(key, site);
  return form as SiteForm;
}

function shown<K extends keyof SiteForm>(key: K, site: SiteView): SiteForm[K] {
  const field: EditField<K> = EDIT_FIELDS[key];
  return field.show(field.stored(site));
}

/**
 * The patch for `sites:edit`: only the fields that changed, so an edit cannot overwrite a value
 * another window changed meanwhile. Checked here with the same limits as the contract, so the
 * admin reads a sentence instead of a schema path.
 */
export function sitePatch(site: SiteView, f: SiteForm): { patch: SitePatch } | { problem: string } {
  const patch: SitePatch = {};
  for (const key of EDIT_KEYS) {
    const problem = patchField(key, site, f, patch);
    if (problem) return { problem };
  }
  return { patch };
}

/** Puts the field into the patch when it changed; answers its problem, if any. */
function patchField<K extends keyof SiteForm>(key: K, site: SiteView, f: SiteForm, patch: SitePatch): string | undefined {
  const field: EditField<K> = EDIT_FIELDS[key];
  const checked = field.check(f[key]);
  if ('problem' in checked) return checked.problem;
  if (JSON.stringify(checked.value) !== JSON.stringify(field.stored(site))) patch[key] = checked.value;
  return undefined;
}

/**
 * Input fields the add form does not ask for: tags and a CA bundle are set afterwards (edit, CLI);
 * the fingerprint comes from the certificate the admin confirms, not from an input.
 */
type NotAsked = 'tags' | 'caBundlePem' | 'trustSha256';

/** The add form's fields: the site input's. */
export type AddSiteForm = FormOf<SiteInput, NotAsked>;

/** A blank add form: an https endpoint, the usual admin user. */
export function addSiteForm(): AddSiteForm {
  return { name: '', baseUrl: 'https://', username: 'admin', password: '', group: '', allowHttp: false };
}

/** What the add form knows beyond its inputs. */
interface AddContext {
  /** The endpoint is https (its certificate is pinned; plain http is never allowed for it). */
  secure: boolean;
  /** The fingerprint the admin confirmed. */
  trustSha256?: string | undefined;
}

/** Each input of the add form as the site input's value; undefined leaves it out. */
const ADD_FIELDS: { [K in keyof AddSiteForm]: (input: AddSiteForm[K], c: AddContext) => SiteInput[K] | undefined } = {
  name: (v) => v.trim(),
  baseUrl: (v) => v.trim(),
  username: (v) => v.trim(),
  password: (v) => v || undefined,
  group: (v) => v.trim() || undefined,
  allowHttp: (v, c) => (!c.secure && v ? true : undefined),
};

/** The `sites:add` request from the add form: trimmed, empty optional fields left out, the confirmed fingerprint for https. */
export function siteInput(form: AddSiteForm, c: AddContext): SiteInput {
  const input: Partial<Record<keyof SiteInput, unknown>> = {};
  for (const key of Object.keys(ADD_FIELDS) as Array<keyof AddSiteForm>) {
    const value = inputField(key, form, c);
    if (value !== undefined) input[key] = value;
  }
  if (c.secure && c.trustSha256) input.trustSha256 = c.trustSha256;
  return input as SiteInput;
}

function inputField<K extends keyof AddSiteForm>(key: K, form: AddSiteForm, c: AddContext): SiteInput[K] | undefined {
  const field: (input: AddSiteForm[K], c: AddContext) => SiteInput[K] | undefined = ADD_FIELDS[key];
  return field(form[key], c);
}
