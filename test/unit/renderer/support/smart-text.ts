/** SMART text in smartctl's layout, for renderer tests. */
export function ataSmart(raw: Partial<Record<5 | 187 | 188 | 197 | 198, number>>): string {
  const row = (id: number, name: string, rawValue: number | string, type = 'Old_age'): string =>
    `${String(id).padStart(3)} ${name.padEnd(23)} 0x0032   100   100   000    ${type.padEnd(9)} Always       -       ${rawValue}`;
  return [
    'smartctl 7.3 2022-02-28 r5338 [x86_64-linux] (local build)',
    '=== START OF INFORMATION SECTION ===',
    'Device Model:     TEST-HDD-16T',
    'Serial Number:    ZTEST0001',
    '',
    '=== START OF READ SMART DATA SECTION ===',
    'SMART overall-health self-assessment test result: PASSED',
    '',
    'ID# ATTRIBUTE_NAME          FLAG     VALUE WORST THRESH TYPE      UPDATED  WHEN_FAILED RAW_VALUE',
    row(1, 'Raw_Read_Error_Rate', 99, 'Pre-fail'),
    row(5, 'Reallocated_Sector_Ct', raw[5] ?? 0, 'Pre-fail'),
    row(9, 'Power_On_Hours', 12000),
    row(187, 'Reported_Uncorrect', raw[187] ?? 0),
    row(188, 'Command_Timeout', `${raw[188] ?? 0} 0 0`),
    row(194, 'Temperature_Celsius', '36 (Min/Max 19/46)'),
    row(197, 'Current_Pending_Sector', raw[197] ?? 0),
    row(198, 'Offline_Uncorrectable', raw[198] ?? 0),
    row(199, 'UDMA_CRC_Error_Count', 7),
    '',
  ].join('\n');
}

export function nvmeSmart(o: { critical?: string; spare?: number; used?: number; media?: number }): string {
  return [
    '=== START OF INFORMATION SECTION ===',
    'Model Number:                       TEST-NVME-3T8',
    'Serial Number:                      NTEST0001',
    '',
    'SMART/Health Information (NVMe Log 0x02)',
    `Critical Warning:                   ${o.critical ?? '0x00'}`,
    'Temperature:                        40 Celsius',
    `Available Spare:                    ${o.spare ?? 100}%`,
    'Available Spare Threshold:          10%',
    `Percentage Used:                    ${o.used ?? 1}%`,
    `Media and Data Integrity Errors:    ${o.media ?? 0}`,
    '',
  ].join('\n');
}
