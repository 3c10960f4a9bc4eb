package parse

// The token-group and token-metadata interface instructions open with these 8-byte
// discriminators (the first bytes of sha256("spl_token_group_interface:<name>") and
// sha256("spl_token_metadata_interface:<name>")); the tests build instructions with them.
var (
	discInitializeGroup      = []byte{121, 113, 108, 39, 54, 51, 0, 4}
	discUpdateGroupMaxSize   = []byte{108, 37, 171, 143, 248, 30, 18, 110}
	discUpdateGroupAuthority = []byte{161, 105, 88, 1, 237, 221, 216, 203}
	discInitializeMember     = []byte{152, 32, 222, 176, 223, 237, 116, 134}

	discMetadataInitialize      = []byte{210, 225, 30, 162, 88, 184, 77, 141}
	discMetadataUpdateField     = []byte{221, 233, 49, 45, 181, 202, 220, 200}
	discMetadataRemoveKey       = []byte{234, 18, 32, 56, 89, 141, 37, 181}
	discMetadataUpdateAuthority = []byte{215, 228, 166, 228, 84, 100, 86, 123}
	discMetadataEmit            = []byte{250, 166, 180, 250, 13, 12, 184, 70}
)
