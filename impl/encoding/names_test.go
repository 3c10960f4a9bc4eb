package encoding

import (
	"strconv"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/alt"
	"ledgerd/impl/programs/config"
	"ledgerd/impl/programs/token"
)

// The parsers these tests reach through EncodeAccount and Parse live in the program modules
// now; these are the layout names and wire values the tests build accounts with, stated here
// as the wire formats define them.

// ConfigKey is one entry of a config account's key list.
type ConfigKey struct {
	Pubkey core.Pubkey
	Signer bool
}

var ValidatorInfoID = config.ValidatorInfoID

const (
	LookupTableMetaSize = alt.LookupTableMetaSize
	TokenMintLen        = token.TokenMintLen
	TokenAccountLen     = token.TokenAccountLen
	TokenMultisigLen    = token.TokenMultisigLen
)

func uintString(v uint64) string { return strconv.FormatUint(v, 10) }

// Token-2022 account types (the byte after the base state) and extension types.
const (
	accountTypeMint    = 1
	accountTypeAccount = 2

	extTransferFeeConfig             = 1
	extTransferFeeAmount             = 2
	extMintCloseAuthority            = 3
	extConfidentialTransferMint      = 4
	extDefaultAccountState           = 6
	extImmutableOwner                = 7
	extMemoTransfer                  = 8
	extNonTransferable               = 9
	extInterestBearingConfig         = 10
	extCpiGuard                      = 11
	extPermanentDelegate             = 12
	extNonTransferableAccount        = 13
	extTransferHook                  = 14
	extTransferHookAccount           = 15
	extConfidentialTransferFeeConfig = 16
	extMetadataPointer               = 18
	extTokenMetadata                 = 19
	extGroupPointer                  = 20
	extTokenGroup                    = 21
	extGroupMemberPointer            = 22
	extTokenGroupMember              = 23
	extScaledUiAmount                = 25
	extPausable                      = 26
	extPausableAccount               = 27
)
