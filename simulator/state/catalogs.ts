import type { DriveType } from './model.js';

/** Word lists and hardware models the generator draws from. Realistic values, invented serials. */

export const SYSTEM_WORDS = [
  'atlas', 'borealis', 'cobalt', 'draco', 'ember', 'fjord', 'granite', 'helix', 'indigo', 'juniper', 'krypton', 'lumen',
  'meridian', 'nova', 'onyx', 'polaris', 'quartz', 'rigel', 'sierra', 'tundra', 'umbra', 'vega', 'willow', 'xenon',
  'yukon', 'zephyr',
] as const;

export const SITE_CITIES = [
  'frankfurt', 'amsterdam', 'boston', 'denver', 'dublin', 'oslo', 'madrid', 'osaka', 'sydney', 'toronto', 'zurich',
  'vienna', 'austin', 'seattle', 'lisbon', 'prague', 'warsaw', 'milan', 'paris', 'helsinki',
] as const;

export const CUSTOMERS = ['Acme Logistics', 'Globex Health', 'Initech Finance', 'Umbrella Research', 'Stark Media', 'Wayne Retail'] as const;

export interface DriveModel {
  readonly type: DriveType;
  readonly vendor: string;
  readonly model: string;
  readonly firmware: string;
  readonly capacityBytes: number;
  readonly rotationRate: string;
  readonly physicalSector: number;
  readonly serialPrefix: string;
}

export const DRIVE_MODELS: readonly DriveModel[] = [
  { type: 'HDD', vendor: 'SEAGATE', model: 'ST16000NM001G-2KK103', firmware: 'SN03', capacityBytes: 16_000_900_661_248, rotationRate: '7200 rpm', physicalSector: 4096, serialPrefix: 'ZL2' },
  { type: 'HDD', vendor: 'SEAGATE', model: 'ST12000NM001G-2MV103', firmware: 'SN02', capacityBytes: 12_000_138_625_024, rotationRate: '7200 rpm', physicalSector: 4096, serialPrefix: 'ZLW' },
  { type: 'HDD', vendor: 'WDC', model: 'WUH721816ALE6L4', firmware: 'PCGNW232', capacityBytes: 16_000_900_661_248, rotationRate: '7200 rpm', physicalSector: 4096, serialPrefix: '2PG' },
  { type: 'HDD', vendor: 'TOSHIBA', model: 'MG08ACA16TE', firmware: '0102', capacityBytes: 16_000_900_661_248, rotationRate: '7200 rpm', physicalSector: 4096, serialPrefix: 'X0J' },
  { type: 'SSD', vendor: 'SAMSUNG', model: 'MZ7LH3T8HMLT-00005', firmware: 'HXT7404Q', capacityBytes: 3_840_755_982_336, rotationRate: 'Solid State Device', physicalSector: 512, serialPrefix: 'S45N' },
  { type: 'SSD', vendor: 'MICRON', model: 'MTFDDAK3T8TDS-1AW1ZABYY', firmware: 'D3MU001', capacityBytes: 3_840_755_982_336, rotationRate: 'Solid State Device', physicalSector: 4096, serialPrefix: '2040' },
  { type: 'SSD', vendor: 'INTEL', model: 'SSDSC2KB038T8', firmware: 'XCV10132', capacityBytes: 3_840_755_982_336, rotationRate: 'Solid State Device', physicalSector: 4096, serialPrefix: 'PHYF' },
  { type: 'NVMe', vendor: 'SAMSUNG', model: 'MZWLJ3T8HBLS-00007', firmware: 'EPK9AB5Q', capacityBytes: 3_840_755_982_336, rotationRate: 'Solid State Device', physicalSector: 4096, serialPrefix: 'S4YP' },
  { type: 'NVMe', vendor: 'INTEL', model: 'SSDPE2KX040T8', firmware: 'VDV10170', capacityBytes: 4_000_787_030_016, rotationRate: 'Solid State Device', physicalSector: 512, serialPrefix: 'PHLJ' },
  { type: 'NVMe', vendor: 'MICRON', model: 'MTFDHAL3T2TDR', firmware: '1.0.0', capacityBytes: 3_200_631_791_616, rotationRate: 'Solid State Device', physicalSector: 4096, serialPrefix: '1945' },
];

export interface CpuModel {
  readonly vendor: string;
  readonly brand: string;
  readonly model: string;
  readonly family: string;
  readonly stepping: string;
  readonly cores: number;
  readonly processorId: string;
}

export const CPU_MODELS: readonly CpuModel[] = [
  { vendor: 'GenuineIntel', brand: 'Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz', model: '106', family: '6', stepping: '6', cores: 32, processorId: 'BFEBFBFF000606A6' },
  { vendor: 'GenuineIntel', brand: 'Intel(R) Xeon(R) Silver 4314 CPU @ 2.40GHz', model: '106', family: '6', stepping: '6', cores: 16, processorId: 'BFEBFBFF000606A6' },
  { vendor: 'AuthenticAMD', brand: 'AMD EPYC 7313 16-Core Processor', model: '1', family: '25', stepping: '1', cores: 16, processorId: '178BFBFF00A00F11' },
];

export const MEMORY_VENDORS = ['Samsung', 'Micron Technology', 'SK Hynix'] as const;

export interface ChassisModel {
  readonly vendor: string;
  readonly product: string;
  readonly board: string;
  readonly bios: string;
  readonly virtual: boolean;
}

export const CHASSIS_MODELS: readonly ChassisModel[] = [
  { vendor: 'Supermicro', product: 'SYS-1029U-TN10RT', board: 'X11DPU', bios: '3.4', virtual: false },
  { vendor: 'Dell Inc.', product: 'PowerEdge R750', board: '0PJ7YJ', bios: '1.8.2', virtual: false },
  { vendor: 'HPE', product: 'ProLiant DL380 Gen10', board: 'ProLiant DL380 Gen10', bios: 'U30 v2.68', virtual: false },
];

export const HBA_MODELS = [
  { model: 'QLE2772', firmware: '9.08.02', driver: '10.02.07.400-k', wwnPrefix: '21:00:00:24:ff' },
  { model: 'LPe35002-M2', firmware: '12.8.351.22', driver: '12.8.0.10', wwnPrefix: '10:00:00:10:9b' },
] as const;

export const NIC_MODELS = {
  management: { vendor: 'Intel Corporation I350 Gigabit Network Connection', speed: 1 },
  data: { vendor: 'Mellanox Technologies MT27800 Family [ConnectX-5]', speed: 25 },
  replication: { vendor: 'Broadcom Inc. BCM57414 NetXtreme-E 10Gb/25Gb', speed: 25 },
} as const;

export const HOST_NAMES = [
  'esx01', 'esx02', 'esx03', 'esx04', 'sql01', 'sql02', 'oracle01', 'k8s-worker1', 'k8s-worker2', 'backup01', 'hyperv01',
  'web01', 'erp-app01', 'vdi-host01',
] as const;

export const APP_NAMES = ['erp', 'crm', 'payroll', 'analytics', 'mail', 'web', 'vdi', 'backup', 'media', 'research', 'billing', 'hr'] as const;

export const VERSION_TRAINS = ['5.4.2', '5.4.3', '5.5.0', '5.5.1'] as const;
