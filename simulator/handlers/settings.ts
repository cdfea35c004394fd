import type { AnomalyDetectionSettings } from '../../app/catalog/resources.js';
import { fail } from '../errors.js';
import type { HandlerMap } from './context.js';

export const settingsHandlers: HandlerMap = {
  'PUT /settings/authentication': (ctx) => {
    const enable = ctx.body.bool('EnableMultifactorAuthentication');
    if (enable === undefined) fail('EnableMultifactorAuthentication is required.');
    ctx.site.multifactor = enable;
    return enable ? 'Two-factor authentication enabled for all users.' : 'Two-factor authentication disabled.';
  },

  'PUT /settings/capacity_units': (ctx) => {
    const binary = ctx.body.bool('BinaryUnits');
    const decimal = ctx.body.bool('DecimalUnits');
    if (binary === undefined && decimal === undefined) fail('Send BinaryUnits or DecimalUnits.');
    if (binary === true && decimal === true) fail('Choose only one of BinaryUnits and DecimalUnits.');
    if (binary === false && decimal === false) fail('Choose one of BinaryUnits and DecimalUnits.');
    ctx.system.binaryUnits = binary === true || decimal === false;
    return ctx.system.binaryUnits ? 'Capacity is shown in binary units (GiB, TiB).' : 'Capacity is shown in decimal units (GB, TB).';
  },

  'PUT /settings/anomaly_detection/edit': (ctx) => {
    const days = ctx.body.int('Timeframe_days');
    const percent = ctx.body.num('ChangeInPercentage');
    if (days === undefined && percent === undefined) fail('Send Timeframe_days or ChangeInPercentage.');
    if (days !== undefined && (days < 1 || days > 365)) fail('Timeframe_days must be between 1 and 365.');
    if (percent !== undefined && (percent <= 0 || percent > 1000)) fail('ChangeInPercentage must be greater than 0 and at most 1000.');
    if (days !== undefined) ctx.system.anomaly.days = days;
    if (percent !== undefined) ctx.system.anomaly.percent = percent;
    return `Anomaly detection: changes above ${ctx.system.anomaly.percent}% within ${ctx.system.anomaly.days} days are reported.`;
  },

  'GET /settings/anomaly_detection/show': (ctx) => {
    const out: AnomalyDetectionSettings = { TimeframeDays: ctx.system.anomaly.days, AbnormalChangePercentage: ctx.system.anomaly.percent };
    return out;
  },
};
