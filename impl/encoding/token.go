package encoding

import "ledgerd/impl/programs/token"

// The token views the RPC methods read besides jsonParsed (balances, supplies, owner and mint
// of token accounts): the token program's module owns them with its parser, and these names
// keep one import for the callers that encode accounts.

// Token account and mint views of either token program.
type (
	TokenAccount  = token.TokenAccount
	Mint          = token.MintView
	UiTokenAmount = token.UiTokenAmount
	MintAmounts   = token.MintAmounts
)

// Token account states.
const (
	TokenStateUninitialized = token.TokenStateUninitialized
	TokenStateInitialized   = token.TokenStateInitialized
	TokenStateFrozen        = token.TokenStateFrozen
)

var (
	// DecodeTokenAccount reads a token account of either program.
	DecodeTokenAccount = token.DecodeTokenAccount
	// DecodeMint reads a mint of either program.
	DecodeMint = token.DecodeMint
	// MintAmountsOf reads what converts amounts of mint key to UI amounts.
	MintAmountsOf = token.MintAmountsOf
	// TokenAmount is the UiTokenAmount of a raw amount.
	TokenAmount = token.TokenAmount
	// NativeMintAmounts are the amounts of wrapped SOL.
	NativeMintAmounts = token.NativeMintAmounts
	// RustF64Display writes a float as Rust's Display does.
	RustF64Display = token.RustF64Display
	// ExtensionTypeName is the reference's name of a Token-2022 extension type.
	ExtensionTypeName = token.ExtensionTypeName
)
