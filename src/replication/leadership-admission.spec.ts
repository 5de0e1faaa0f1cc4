import { describe, expect, it } from 'vitest';
import type { PartitionState } from '../topic/cluster-metadata.js';
import { assertMayLead, leadershipAdmission } from './leadership-admission.js';

const state = (leaderEpoch: number, epochs: Record<string, number>): PartitionState => ({
  leader: 1,
  leaderEpoch,
  isr: [1, 2],
  isrBrokerEpochs: epochs,
  controllerEpoch: 3,
});
const self = { brokerId: 1, brokerEpoch: 11 };

describe('leadershipAdmission', () => {
  it('lets the incarnation the state names lead in an epoch above its checkpoint at start-up', () => {
    expect(leadershipAdmission(state(5, { 1: 11, 2: 20 }), self, 4)).toEqual({ lead: true });
    expect(() => assertMayLead(state(5, { 1: 11, 2: 20 }), self, 4)).not.toThrow();
  });

  it('refuses a state that names an earlier incarnation of this broker (written before its restart)', () => {
    expect(leadershipAdmission(state(5, { 1: 10, 2: 20 }), self, 4)).toMatchObject({
      lead: false,
      reason: expect.stringMatching(/as incarnation 10, but this is incarnation 11/),
    });
    expect(leadershipAdmission(state(5, { 2: 20 }), self, 4)).toMatchObject({ lead: false });
  });

  it('refuses an epoch it may have led before its restart: not above its epoch checkpoint', () => {
    expect(leadershipAdmission(state(5, { 1: 11, 2: 20 }), self, 5)).toMatchObject({
      lead: false,
      reason: expect.stringMatching(/not above epoch 5/),
    });
    expect(() => assertMayLead(state(5, { 1: 11, 2: 20 }), self, 7)).toThrow(/never an epoch led before a restart/);
  });

  it('refuses a leadership outside the ISR or of another broker', () => {
    expect(leadershipAdmission({ ...state(5, { 2: 20 }), isr: [2] }, self, -1)).toMatchObject({ lead: false });
    expect(leadershipAdmission({ ...state(5, { 1: 11 }), leader: 2 }, self, -1)).toMatchObject({ lead: false });
  });
});
