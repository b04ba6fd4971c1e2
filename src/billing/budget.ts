// The budget hook the gateway calls around every upstream call: reserve the worst-case cost
// before (refused with 402 budget_exceeded past the monthly cap), keep the reservation alive
// while the call runs, settle to the real cost after, release on failure. The billing feature
// provides the real guard.

export interface BudgetReservation {
  id: string;
  organizationId: string;
  amount: number;
}

export interface BudgetGuard {
  /** Throws AppError('budget_exceeded') when the reservation would pass the cap. */
  reserve(organizationId: string, worstCaseCost: number): Promise<BudgetReservation>;
  /**
   * Renews the reservation's expiry until the returned function is called: a call that runs
   * longer than the reservation TTL (a long stream) keeps its budget held, while the holds of a
   * crashed process still lapse. Callers stop it in a `finally` around the upstream call.
   */
  keepAlive(reservation: BudgetReservation): () => void;
  settle(reservation: BudgetReservation, actualCost: number): Promise<void>;
  release(reservation: BudgetReservation): Promise<void>;
}

/** No cap: reservations always succeed. */
export const unlimitedBudget: BudgetGuard = {
  async reserve(organizationId, worstCaseCost) {
    return { id: 'unlimited', organizationId, amount: worstCaseCost };
  },
  keepAlive: () => () => {},
  async settle() {},
  async release() {},
};
