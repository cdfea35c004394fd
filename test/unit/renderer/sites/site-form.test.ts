import { describe, expect, it } from 'vitest';
import { siteEditSchema, siteInputSchema, type SiteView } from '../../../../app/domain/site.js';
import { addSiteForm, siteForm, siteInput, sitePatch, type AddSiteForm, type FormOf, type SiteForm } from '../../../../renderer/sites/site-form.js';

/*
 * The site dialogs' forms are derived from the site schemas (`app/domain/site.ts`). This file is
 * checked with the renderer (`npm run typecheck`): the `@ts-expect-error` lines prove that a
 * misspelt or missing field fails the typecheck (were it accepted, the directive would be unused).
 */

const complete: SiteForm = { name: 'a', baseUrl: 'https://a', username: 'u', group: '', tags: '', maxInFlight: 4, intervalSeconds: 0, smartMaxAgeHours: 24 };
// @ts-expect-error a misspelt field of the edit schema
const misspelt: SiteForm = { ...complete, baseURL: 'https://a' };
// @ts-expect-error a field the form lacks (smartMaxAgeHours)
const missing: SiteForm = { name: 'a', baseUrl: 'https://a', username: 'u', group: '', tags: '', maxInFlight: 4, intervalSeconds: 0 };
// @ts-expect-error the add form has no tags input (they are set when editing)
const addTags: AddSiteForm = { ...addSiteForm(), tags: 'prod' };
// A field added to the schema is one the form must have: here `color`, added to the edit fields.
interface GrownEdit {
  name?: string;
  color?: string;
}
// @ts-expect-error the grown schema's form needs its new field
const grown: FormOf<GrownEdit> = { name: 'a' };
void [misspelt, missing, addTags, grown];

const stored: SiteView = {
  id: 'east',
  name: 'East DC',
  baseUrl: 'https://east.example:8443',
  username: 'admin',
  group: 'Europe',
  tags: ['prod'],
  tls: { pinSha256: 'ab'.repeat(32), hasCaBundle: false },
  allowHttp: false,
  polling: { intervalSeconds: 60, paused: false, maxInFlight: 4 },
  simulated: false,
};

describe('the edit form, from the edit schema', () => {
  it('has one input per field of the edit schema the dialog edits (plain http is allowed only when adding)', () => {
    expect(Object.keys(siteForm(stored)).sort()).toEqual(Object.keys(siteEditSchema.shape).filter((k) => k !== 'allowHttp').sort());
    expect(siteForm(stored)).toEqual({ name: 'East DC', baseUrl: 'https://east.example:8443', username: 'admin', group: 'Europe', tags: 'prod', maxInFlight: 4, intervalSeconds: 60, smartMaxAgeHours: 24 });
  });

  it('turns every changed input into exactly the schema’s edit, and an unchanged form into none', () => {
    expect(sitePatch(stored, siteForm(stored))).toEqual({ patch: {} });
    const form: SiteForm = { name: ' West DC ', baseUrl: 'https://west.example', username: ' ops ', group: '', tags: 'a, b ,a,', maxInFlight: 8, intervalSeconds: 300, smartMaxAgeHours: 6 };
    const result = sitePatch(stored, form);
    const patch = { name: 'West DC', baseUrl: 'https://west.example', username: 'ops', group: '', tags: ['a', 'b'], maxInFlight: 8, intervalSeconds: 300, smartMaxAgeHours: 6 };
    expect(result).toEqual({ patch });
    // Exactly the schema's input: it parses, strictly, to itself.
    expect(siteEditSchema.strict().parse(patch)).toEqual(patch);
  });

  it('names the first problem in the order of the form, with the sentences the dialog has always shown', () => {
    const form = siteForm(stored);
    expect(sitePatch(stored, { ...form, name: ' ', maxInFlight: 0 })).toEqual({ problem: 'a site name cannot be empty or start/end with a space' });
    expect(sitePatch(stored, { ...form, baseUrl: 'east' })).toEqual({ problem: 'the URL must be absolute, e.g. https://storage.example:8443' });
    expect(sitePatch(stored, { ...form, baseUrl: 'ftp://east' })).toEqual({ problem: 'the URL must start with https:// (or http:// for loopback)' });
    expect(sitePatch(stored, { ...form, username: ' ' })).toEqual({ problem: 'a user name is required' });
    expect(sitePatch(stored, { ...form, group: 'g'.repeat(101) })).toEqual({ problem: 'a group name has at most 100 characters' });
    expect(sitePatch(stored, { ...form, tags: 't'.repeat(51) })).toEqual({ problem: 'at most 50 tags of at most 50 characters each' });
    expect(sitePatch(stored, { ...form, maxInFlight: null, intervalSeconds: -1 })).toEqual({ problem: 'requests in flight must be a whole number from 1 to 64' });
    expect(sitePatch(stored, { ...form, intervalSeconds: 1.5 })).toEqual({ problem: 'the polling interval must be a whole number of seconds from 0 (on demand) to 86400' });
    expect(sitePatch(stored, { ...form, smartMaxAgeHours: 8761 })).toEqual({ problem: 'the SMART age must be a whole number of hours from 1 to 8760' });
  });
});

describe('the add form, from the input schema', () => {
  it('turns its inputs into exactly the schema’s input: trimmed, empty optional fields left out', () => {
    const form: AddSiteForm = { name: ' dc-new ', baseUrl: ' https://127.0.0.1:8443 ', username: ' admin ', password: 'pa55word!', group: ' Paris ', allowHttp: true };
    const input = siteInput(form, { secure: true, trustSha256: 'ab'.repeat(32) });
    expect(input).toEqual({ name: 'dc-new', baseUrl: 'https://127.0.0.1:8443', username: 'admin', password: 'pa55word!', group: 'Paris', trustSha256: 'ab'.repeat(32) });
    expect(siteInputSchema.strict().parse(input)).toEqual(input);

    const plain = siteInput({ ...addSiteForm(), name: 'lab', baseUrl: 'http://lab.example' , allowHttp: true }, { secure: false, trustSha256: 'ignored' });
    expect(plain).toEqual({ name: 'lab', baseUrl: 'http://lab.example', username: 'admin', allowHttp: true });
    expect(siteInputSchema.strict().parse(plain)).toEqual(plain);
  });

  it('asks for every field of the input schema but those it names as set elsewhere', () => {
    expect(Object.keys(addSiteForm()).sort()).toEqual(Object.keys(siteInputSchema.shape).filter((k) => !['tags', 'caBundlePem', 'trustSha256'].includes(k)).sort());
  });
});
