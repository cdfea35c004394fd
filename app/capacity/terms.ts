// The capacity words every view shows, apart from the assessment (pools.ts) so the overview's first
// frame (its column titles) does not carry the assessment and the forecast.

/** One word per figure, and what it means; views show the word with the definition as its tooltip. */
export const CAPACITY_TERMS = {
  usable: 'Usable: what the pool can hold for volumes, after parity.',
  allocated: 'Allocated: given to volumes and their snapshot space (what provisioning uses up), whether written or not.',
  consumed: 'Consumed: data actually written into the allocated space.',
  free: 'Free: usable minus allocated; what new volumes can still get.',
  state: "State: the pool's provisioning state as the system reports it (Ok, Warning, Full, Degraded).",
  outlook: 'Outlook: the worse of the system’s state and the days-until-full forecast of consumed data.',
} as const;

export type CapacityTerm = keyof typeof CAPACITY_TERMS;
