import { describe, expect, it } from 'vitest';
import type { Node } from '../../../../app/catalog/resources.js';
import { haOf, isTakenOver, partnerOf, takeoverBlocked } from '../../../../app/health/ha.js';

const node = (Name: string, State: string, HAState?: string): Node => ({ Name, State, ...(HAState === undefined ? {} : { HAState }) });

describe('haOf: the HA state of a system', () => {
  it('is not reported without a node list', () => {
    const none = { level: 'unknown', label: 'not reported', text: 'no node list cached', takenOver: [], takingOver: [], down: [] };
    expect(haOf(undefined)).toEqual(none);
    expect(haOf([])).toEqual(none);
  });

  it('counts the nodes of a normal system', () => {
    expect(haOf([node('n1', 'Running', 'Normal'), node('n2', 'Up', 'Normal')])).toEqual({ level: 'ok', label: 'normal', text: '2 nodes normal', takenOver: [], takingOver: [], down: [] });
    expect(haOf([node('n1', 'Running')]).text).toBe('1 node normal');
  });

  it('is critical when a node is taken over, naming who runs its services', () => {
    expect(haOf([node('n1', 'Running', 'TakeoverActive'), node('n2', 'Down', 'Taken Over')])).toEqual({
      level: 'critical',
      label: 'taken over',
      text: 'n2 taken over by n1',
      takenOver: ['n2'],
      takingOver: ['n1'],
      down: ['n2'],
    });
    expect(haOf([node('n1', 'Running', 'Normal'), node('n2', 'Running', 'taken-over')]).text).toBe('n2 taken over');
    const four = [node('a', 'Running', 'Takeover Active'), node('b', 'Down', 'TakenOver'), node('c', 'Running', 'takeover-active'), node('d', 'Down', 'TakenOver')];
    expect(haOf(four)).toMatchObject({ text: 'b, d taken over by a, c', takenOver: ['b', 'd'], takingOver: ['a', 'c'] });
    expect(haOf([node('a', 'Running', 'NoTakeoverActive'), node('b', 'Running', 'TakeoverActiveX'), node('c', 'Down', 'TakenOver')])).toMatchObject({ takingOver: [], text: 'c taken over' });
  });

  it('is degraded when a node is down or in an HA state the app does not know, naming each', () => {
    const down = haOf([node('n1', 'Running', 'Normal'), node('n2', 'Down', 'Normal')]);
    expect(down).toEqual({ level: 'critical', label: 'degraded', text: 'n2 down', takenOver: [], takingOver: [], down: ['n2'] });
    const booting = haOf([node('n1', 'Booting', 'Normal'), node('n2', 'Running', 'Normal')]);
    expect(booting).toMatchObject({ level: 'warning', label: 'degraded', text: 'n1 booting', down: ['n1'] });
    const odd = haOf([node('n1', 'Running', 'GivingBack'), node('n2', 'Running', 'Frobbed')]);
    expect(odd).toMatchObject({ level: 'unknown', label: 'degraded', text: 'n1 HA state GivingBack, n2 HA state Frobbed', down: [] });
    const strange = haOf([node('n1', 'Wibbling', 'Normal')]);
    expect(strange).toMatchObject({ level: 'unknown', label: 'degraded', text: 'n1 state “Wibbling” not understood', down: ['n1'] });
  });

  it('names a node without a name by its id', () => {
    expect(haOf([{ Id: 7, State: 'Down' }]).text).toBe('node 7 down');
    expect(haOf([{ State: 'Down' }]).text).toBe('node ? down');
  });
});

describe('HA actions on a pair', () => {
  const pair = [node('n1', 'Running', 'Normal'), node('n2', 'Running', 'Normal')];

  it('recognises taken-over in the spellings systems use', () => {
    for (const s of ['TakenOver', 'taken over', 'Taken-Over', 'TAKENOVER']) expect(isTakenOver(node('n', 'Down', s)), s).toBe(true);
    for (const s of ['TakeoverActive', 'NotTakenOver', 'TakenOverX', undefined]) expect(isTakenOver(node('n', 'Down', s)), String(s)).toBe(false);
  });

  it('finds the partner that runs a taken-over node’s services, even among more nodes', () => {
    const four = [node('a', 'Running', 'Normal'), node('b', 'Down', 'TakenOver'), node('c', 'Running', 'TakeoverActive'), node('d', 'Running', 'Normal')];
    expect(partnerOf(four, 'b')?.Name).toBe('c');
    expect(partnerOf(four, 'a')).toBeUndefined();
    expect(partnerOf(four, 'zz')).toBeUndefined();
    // Two nodes taking over: which one runs b's services is not known.
    const two = [...four, node('e', 'Running', 'takeover active')];
    expect(partnerOf(two, 'b')).toBeUndefined();
  });

  it('refuses a takeover of a node that is missing or down, or whose partner cannot take it', () => {
    expect(takeoverBlocked(pair, 'n9')).toBe('the node is not in the cached node list');
    expect(takeoverBlocked([node('n1', 'Down', 'Normal'), node('n2', 'Running', 'Normal')], 'n1')).toBe('n1 is down');
    expect(takeoverBlocked([node('n1', 'Running', 'Normal'), node('n2', 'Stopped', 'Normal')], 'n1')).toBe('its partner n2 is down and cannot take over');
    expect(takeoverBlocked([node('n1', 'Running', 'Normal'), node('n2', 'Running', 'GivingBack')], 'n1')).toBe('its partner n2 is not in a normal HA state (GivingBack)');
    expect(takeoverBlocked([...pair, node('n3', 'Down', 'Normal')], 'n1')).toBeUndefined();
  });
});
