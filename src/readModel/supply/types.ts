// Supply REST shapes, straight from the generated spec types.
import type { components } from '../../../generated/openapi/types.ts';

export type TotalSupplyBody = components['schemas']['TotalSupply'];
export type CirculatingSupplyBody = components['schemas']['CirculatingSupply'];
export type SupplyAmountBody = components['schemas']['SupplyAmount'];
export type SupplyWalletsBody = components['schemas']['SupplyWallets'];
