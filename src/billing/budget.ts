// The budget hook the gateway calls around every upstream call: reserve the worst-case cost
// before (refused with 402 budget_exceeded past the monthly cap), settle to the real cost after,
// release on failure. The billing feature provides the real guard.

export interface BudgetReservation {
  id: string;
  organizationId: string;
  amount: number;
}

export interface BudgetGuard {
  /** Throws AppError('budget_exceeded') when the reservation would pass the cap. */
  reserve(organizationId: string, worstCaseCost: number): Promise<BudgetReservation>;
  settle(reservation: BudgetReservation, actualCost: number): Promise<void>;
  release(reservation: BudgetReservation): Promise<void>;
}

/** No cap: reservations always succeed. */
export const unlimitedBudget: BudgetGuard = {
  async reserve(organizationId, worstCaseCost) {
    return { id: 'unlimited', organizationId, amount: worstCaseCost };
  },
  async settle() {},
  async release() {},
};
