/**
 * Wallet coins (spec, "Coin"). USDT on TRC20 and BEP20 are enabled; USDC on ERC20 is listed but
 * disabled, so address creation for it is refused. `feeRate`/`fixedFee` price on-chain deposits
 * (sandbox-only, reported in the wallet transaction).
 */

export interface CoinDef {
  coinKey: string;
  chain: string;
  coinFullName: string;
  coinName: string;
  showCoinDecimal: number;
  coinDecimal: number;
  blockChainShowName: string;
  browser: string;
  txRefUrl: string;
  contractAddress: string;
  enableDeposit: boolean;
  enableWithdraw: boolean;
  confirmations: number;
  enabled: boolean;
  /** Deposit fee, percent (1 = 1%). */
  feeRate: string;
  fixedFee: string;
}

export const COINS: readonly CoinDef[] = [
  {
    coinKey: 'USDT_TRC20',
    chain: 'TRC20',
    coinFullName: 'Tether USD',
    coinName: 'USDT',
    showCoinDecimal: 2,
    coinDecimal: 6,
    blockChainShowName: 'Tron (TRC20)',
    browser: 'https://tronscan.org/#/address/{address}',
    txRefUrl: 'https://tronscan.org/#/transaction/{txHash}',
    contractAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    enableDeposit: true,
    enableWithdraw: true,
    confirmations: 19,
    enabled: true,
    feeRate: '0.5',
    fixedFee: '1',
  },
  {
    coinKey: 'USDT_BEP20',
    chain: 'BEP20',
    coinFullName: 'Tether USD',
    coinName: 'USDT',
    showCoinDecimal: 2,
    coinDecimal: 18,
    blockChainShowName: 'BNB Smart Chain (BEP20)',
    browser: 'https://bscscan.com/address/{address}',
    txRefUrl: 'https://bscscan.com/tx/{txHash}',
    contractAddress: '0x55d398326f99059fF775485246999027B3197955',
    enableDeposit: true,
    enableWithdraw: true,
    confirmations: 15,
    enabled: true,
    feeRate: '0.5',
    fixedFee: '0.5',
  },
  {
    coinKey: 'USDC_ERC20',
    chain: 'ERC20',
    coinFullName: 'USD Coin',
    coinName: 'USDC',
    showCoinDecimal: 2,
    coinDecimal: 6,
    blockChainShowName: 'Ethereum (ERC20)',
    browser: 'https://etherscan.io/address/{address}',
    txRefUrl: 'https://etherscan.io/tx/{txHash}',
    contractAddress: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
    enableDeposit: false,
    enableWithdraw: false,
    confirmations: 12,
    enabled: false,
    feeRate: '0.3',
    fixedFee: '5',
  },
];
