/**
 * Dialects: ways a real system may answer where `docs/interface.md` is silent. The simulator's
 * default answers are our own reading of the document; a client tested only against them proves
 * that both read it the same way. Each dialect is off unless switched on (`--dialect a,b`, the
 * `dialects` start option, or the control API), and the set can change while the simulator runs.
 *
 * To add one: a name and a sentence here, then read `fleet.dialects.has(name)` where the answer
 * changes, and a row in simulator/README.md under "Dialects".
 */
export const DIALECTS = {
  'sas-smart':
    'HDD and SSD drives are SAS drives (SAS models in the hardware lists) whose SMART is smartctl\'s SCSI output; on the first node of every system the first HDD has 2,500 grown defects and 57 uncorrected read errors, the second answers text smartctl prints when it cannot open a drive behind a RAID controller.',
  'envelope-result':
    'Every JSON answer comes inside a Result envelope, as gateways that wrap a service answer: lists as {"Result":{"Data":[...]}}, objects as {"Result":{...}}, messages as {"Result":"..."}.',
  'envelope-lower':
    'Property names in camelCase, as ASP.NET Core writes them by default: lists as {"data":[...]}, every field name with a lower-case first word ({"name":…, "haState":…, "cpuInPercentage":…}); map keys (pool names, modules) unchanged.',
  'snake-case':
    'Field names in snake_case, as Python and Go services and Rails write them: lists as {"data":[...], …}, {"name":…, "ha_state":…, "cpu_in_percentage":…, "session_token":…}; map keys (pool names, modules) unchanged.',
  'bool-numbers': 'Every boolean in an answer is 1 or 0, as services that pass a database bit through write it ("Encrypted":0, "IsEnabled":1).',
  nulls:
    'Optional fields are sent as null, as a .NET serialiser writes unset values: every empty string, empty list and empty Data list is null, and each system sends a null VolumesHealthInPercentage (it cannot compute it).',
  'sentinel-percentages':
    'Each system sends -1 for figures it cannot compute, as .NET services write a sentinel: VolumesHealthInPercentage, and CPUInPercentage and MemoryInPercentage of the hardware utilisation.',
  'fraction-percentages':
    'Every percentage (the fields named …Percentage) is a ratio from 0 to 1, as .NET code that formats it with "P" keeps it: 0.98 for 98 %, 1 for 100 %.',
  'unit-sizes':
    'Sizes (the fields named …Bytes) are text with an SI unit and three significant digits ("3.64 TB", "512 B"), and percentages text with a percent sign ("98.18 %"), as storage UIs print them.',
  'spaced-enums': 'Enumeration values of more than one word in lower case with spaces ("in sync", "not approved", "taken over"), as display names are written.',
  'dotnet-references':
    'Answers as System.Text.Json writes them with ReferenceHandler.Preserve: every object has "$id", every array is {"$id":…, "$values":[...]}, and an object equal to one written before is {"$ref":"<its $id>"}.',
  'pretty-json': 'Every 200 answer is indented JSON (two spaces, a member per line), as services with indented output switched on write it.',
  'no-content-lists': 'An empty list answer is HTTP 204 No Content with no body, as many REST services answer one.',
  'numeric-strings': 'Every number in an answer is sent as a string ("Id":"3", "CapacityInBytes":"4000787030016", "VolumesHealthInPercentage":"100").',
  'enum-case':
    'Enumeration values in another case: all-capital ones in lower case, the others in capitals ("OK" → "ok", "Running" → "RUNNING", "Failed" → "FAILED"), the login Status included.',
  'unknown-envelope': 'List answers come as {"items":[...],"total":N}, an envelope the document does not describe; other answers are unchanged.',
  'big-ids': 'Notification record ids and system ids are past 2^53 (2^53 plus the id), written as JSON integers, as int64 ids of a long-running system can be.',
  'guid-ids': 'Notification record ids are GUIDs ("Id":"7d3f9a2c-5e1b-4c8d-a6f0-00000000002a"), as .NET services key their records, not integers.',
  'no-record-ids': 'Notification records come without an Id, as event stores that key records internally send them.',
  'raw-token':
    'Every authenticated operation takes the session token as the whole Authorization header, without the "Bearer " the document shows; "Bearer <token>" is refused with 401 "Invalid or expired session token.".',
  'numeric-status':
    'POST /login answers its Status as a number: 0 for a completed login, 2 when a second factor is needed (Details: "Two-step verification is on: enter the verification code from your authenticator app.").',
  'mfa-401':
    'With multi-factor authentication on, a login without a code is refused with 401 "Multifactor authentication required: enter the one-time password (OTP) from your authenticator app."; a wrong code is 401 "Invalid verification code."; and a code is accepted once (RFC 6238 §5.2): another login with the same code is refused.',
  'expired-cert':
    'With TLS, every site presents a self-signed certificate that expired a year ago (valid from two years ago to one year ago); switching it on or off replaces the certificates at once.',
  'problem-details':
    'A 400 answers an RFC 7807 problem-details object (application/problem+json: type, title, status, detail) instead of a JSON string.',
  'compressed':
    'Every answer with a body is compressed whether or not the client asked (Content-Encoding br for the SMART text, deflate for the answers of /list operations, gzip for the others), and its JSON text starts with a UTF-8 byte order mark.',
  'expired-440':
    'An authenticated call with an unknown or expired session token is refused as IIS does: HTTP 440 "Login Time-out" with a plain-text body, not a 401; a refused login is still 401.',
  'local-time':
    'Every time is written in the system\'s local time (UTC−5) without a zone, as systems whose clock is set to local time stamp it ("2025-01-15T07:00:00" for 12:00 UTC), nodes\' Time included; query times (startTimestamp, endTimestamp) are read in the same local time. The HTTP Date header stays true GMT.',
  'no-clock-hints':
    'Answers carry no HTTP Date header, and nodes report no Time (in nodes/list and systems/list), as behind a gateway that strips headers on a system whose node records leave the clock out: only the records\' own stamps tell the system\'s clock.',
  'epoch-times': 'Every time in an answer is sent as epoch milliseconds, a JSON number ("Timestamp":1736942400000), as Unix-minded services write them.',
  'dotnet-dates':
    'Times as .NET serialisers write them: notification timestamps and other times as /Date(ms)/ (DataContractJsonSerializer), with a +0100 offset suffix on every other record, and nodes\' Time in the round-trip form with seven fraction digits and an offset ("2025-01-15T12:00:00.0000000+00:00").',
  'day-first-dates': 'Every time in an answer is written day first without a zone, as a system set to a British or European culture writes it ("05/01/2025 12:00:00" for 5 January), nodes\' Time included.',
  'level-names':
    'Notification levels are sent as names, as logging frameworks write them (Verbose, Debug, Information, Warning, Error, Fatal), in varying case ("FATAL", "error"); levels 2 and 3 as "info" and "Warn".',
  'paged-lists':
    'List answers of more than 3 items (notifications/query aside, which has top) send the first 3 with "TotalCount" (the whole list\'s length) and a "NextPageToken", as paging services do; no way to ask for the next page is documented.',
  'partial-content': 'List answers of more than 3 items (notifications/query aside) come as HTTP 206 with the first 3 and "Content-Range: items 0-2/N".',
  'link-header-paging':
    'List answers of more than 3 items (notifications/query aside) send the first 3 as a 200 whose body says nothing of paging; a Link header names the next page (rel="next", RFC 8288) and X-Total-Count the whole list\'s length, as GitHub-style REST APIs do.',
  'nested-paging':
    'List answers of more than 3 items (notifications/query aside) send the first 3 with a "Paging" object beside Data ({"PageNumber":1,"PageSize":3,"TotalPages":N}) that gives pages, not items, as paging wrappers of .NET services do.',
  'notification-pages':
    'GET /notifications/query answers at most 25 records whatever top asks, with "TotalCount" (the records matching), as services with a page cap do; the next page is asked by time (endTimestamp, or startTimestamp in ascending order), the one way the document gives.',
  'smart-brief':
    'ATA SMART text is smartctl -x\'s brief attribute table (FLAGS as PO--CK, a FAIL column of -, NOW or Past, the flag legend under it); on the first node of every system the first ATA drive\'s Spin_Up_Time failed in the past (Past).',
  'smart-json':
    'GET /resources/drives/smart answers smartctl --json -a output, a JSON object rather than text (ATA attribute table or NVMe health log, smart_status); with smart-brief, the same drive\'s Spin_Up_Time has when_failed "past".',
  'slow-analyzer':
    'GET /resources/drives/performance_analyzer takes as long as it says: iterationTimeInSeconds for each of the four tests of each drive, one after another, on the wall clock.',
  'shared-selection':
    'GET /systems/select moves every session of the calling user, as on systems that keep the selection per user rather than per session; a new session starts on the user\'s current system.',
  'unlisted-system':
    'GET /systems/list leaves out the site\'s last system (of two or more), with the Message "System \'<name>\' is not listed: its relay connection is down."; the system itself still answers.',
  'empty-system-list':
    'GET /systems/list answers no systems, with the Message "The management service is starting: the system list is not available yet.".',
  'unnamed-system': 'GET /systems/list lists the site\'s last system (of two or more) without a Name, as a system that joined and was not named yet; it still answers by its id.',
  'duplicate-system-names': 'GET /systems/list lists the site\'s last system (of two or more) under the name of its first, as sites that do not keep names unique do; each still has its own Id.',
  'no-current-system': 'GET /systems/list leaves out IsCurrentlyConnectedSystem: it does not say which system the calling session works on.',
  'expired-400':
    'An authenticated call with an unknown or expired session token is refused with 400 "Session expired. Please log in again." instead of 401; a refused login is still 401.',
} as const satisfies Readonly<Record<string, string>>;

export type Dialect = keyof typeof DIALECTS;

export const DIALECT_NAMES: readonly Dialect[] = Object.keys(DIALECTS) as Dialect[];

function isDialect(name: string): name is Dialect {
  return Object.hasOwn(DIALECTS, name);
}

/**
 * Reads dialect names from a comma-separated list or an array of them (case-insensitive, blanks
 * ignored). Throws a RangeError naming the unknown one and the known ones.
 */
export function parseDialects(input: string | readonly unknown[]): Dialect[] {
  const items = typeof input === 'string' ? input.split(',') : input;
  const out: Dialect[] = [];
  for (const item of items) {
    if (typeof item !== 'string') throw new RangeError(`a dialect is a name, got ${JSON.stringify(item)}`);
    const name = item.trim().toLowerCase();
    if (name === '') continue;
    if (!isDialect(name)) throw new RangeError(`unknown dialect ${JSON.stringify(item.trim())}: known dialects are ${DIALECT_NAMES.join(', ')}`);
    if (!out.includes(name)) out.push(name);
  }
  return out;
}
