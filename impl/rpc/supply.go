package rpc

import (
	"slices"

	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
	"ledgerd/impl/programs/stake"
	"ledgerd/impl/runtime"
)

// The reference counts as non-circulating a fixed list of mainnet-beta addresses, whether or not they exist on
// the chain at hand (their balances count, zero where there is no account), and every initialized or delegated
// stake account whose lockup is in force at the bank's clock (a custodian does not lift it here) or whose
// withdraw authority is one of mainnet-beta's auto-staking authorities. The same lists on every cluster, the
// test validator's included: getSupply's nonCirculatingAccounts is never empty.

// nonCirculatingAddresses are the reference's fixed non-circulating mainnet-beta accounts, in its order.
var nonCirculatingAddresses = mustPubkeys(
	"9huDUZfxoJ7wGMTffUE7vh1xePqef7gyrLJu9NApncqA", "GK2zqSsXLA2rwVZk347RYhh6jJpRsCA69FjLW93ZGi3B",
	"CWeRmXme7LmbaUWTZWFLt6FMnpzLCHaQLuR2TdgFn4Lq", "HCV5dGFJXRrJ3jhDYA4DCeb9TEDTwGGYXtT3wHksu2Zr",
	"14FUT96s9swbmH7ZjpDvfEDywnAYy9zaNhv4xvezySGu", "HbZ5FfmKWNHC7uwk6TF1hVi6TCs7dtYfdjEcuPGgzFAg",
	"C7C8odR8oashR5Feyrq2tJKaXL18id1dSj2zbkDGL2C2", "Eyr9P5XsjK2NUKNCnfu39eqpGoiLFgVAv1LSQgMZCwiQ",
	"DE1bawNcRJB9rVm3buyMVfr8mBEoyyu73NBovf2oXJsJ", "CakcnaRDHka2gXyfbEd2d3xsvkJkqsLw2akB3zsN1D2S",
	"7Np41oeYqPefeNQEHSv1UDhYrehxin3NStELsSKCT4K2", "GdnSyH3YtwcxFvQrVVJMm1JhTS4QVX7MFsX56uJLUfiZ",
	"Mc5XB47H3DKJHym5RLa9mPzWv5snERsF3KNv5AauXK8", "7cvkjYAkUYs4W8XcXsca7cBrEGFeSUjeZmKoNBvEwyri",
	"AG3m2bAibcY8raMt4oXEGqRHwX4FWKPPJVjZxn1LySDX", "5XdtyEDREHJXXW1CTtCsVjJRjBapAwK78ZquzvnNVRrV",
	"6yKHERk8rsbmJxvMpPuwPs1ct3hRiP7xaJF2tvnGU6nK", "CHmdL15akDcJgBkY6BP3hzs98Dqr6wbdDC5p8odvtSbq",
	"FR84wZQy3Y3j2gWz6pgETUiUoJtreMEuWfbg6573UCj9", "5q54XjQ7vDx4y6KphPeE97LUNiYGtP55spjvXAWPGBuf",
	"3o6xgkJ9sTmDeQWyfj3sxwon18fXJB9PV5LDc8sfgR4a", "GumSE5HsMV5HCwBTv2D2D81yy9x17aDkvobkqAfTRgmo",
	"AzVV9ZZDxTgW4wWfJmsG6ytaHpQGSe1yz76Nyy84VbQF", "8CUUMKYNGxdgYio5CLHRHyzMEhhVRMcqefgE6dLqnVRK",
	"CQDYc4ET2mbFhVpgj41gXahL6Exn5ZoPcGAzSHuYxwmE", "5PLJZLJiRR9vf7d1JCCg7UuWjtyN9nkab9uok6TqSyuP",
	"7xJ9CLtEAcEShw9kW2gSoZkRWL566Dg12cvgzANJwbTr", "BuCEvc9ze8UoAQwwsQLy8d447C8sA4zeVtVpc6m5wQeS",
	"8ndGYFjav6NDXvzYcxs449Aub3AxYv4vYpk89zRDwgj7", "8W58E8JVJjH1jCy5CeHJQgvwFXTyAVyesuXRZGbcSUGG",
	"GNiz4Mq886bTNDT3pijGsu2gbw6it7sqrwncro45USeB", "GhsotwFMH6XUrRLJCxcx62h7748N2Uq8mf87hUGkmPhg",
	"Fgyh8EeYGZtbW8sS33YmNQnzx54WXPrJ5KWNPkCfWPot", "8UVjvYyoqP6sqcctTso3xpCdCfgTMiv3VRh7vraC2eJk",
	"BhvLngiqqKeZ8rpxch2uGjeCiC88zzewoWPRuoxpp1aS", "63DtkW7zuARcd185EmHAkfF44bDcC2SiTSEj2spLP3iA",
	"GvpCiTgq9dmEeojCDBivoLoZqc4AkbUDACpqPMwYLWKh", "7Y8smnoUrYKGGuDq2uaFKVxJYhojgg7DVixHyAtGTYEV",
	"DUS1KxwUhUyDKB4A81E8vdnTe3hSahd92Abtn9CXsEcj", "F9MWFw8cnYVwsRq8Am1PGfFL3cQUZV37mbGoxZftzLjN",
	"8vqrX3H2BYLaXVintse3gorPEM4TgTwTFZNN1Fm9TdYs", "CUageMFi49kzoDqtdU8NvQ4Bq3sbtJygjKDAXJ45nmAi",
	"5smrYwb1Hr2T8XMnvsqccTgXxuqQs14iuE8RbHFYf2Cf", "xQadXQiUTCCFhfHjvQx1hyJK6KVWr1w2fD6DT3cdwj7",
	"8DE8fqPfv1fp9DHyGyDFFaMjpopMgDeXspzoi9jpBJjC", "3itU5ME8L6FDqtMiRoUiT1F7PwbkTtHBbW51YWD5jtjm",
	"AsrYX4FeLXnZcrjcZmrASY2Eq1jvEeQfwxtNTxS5zojA", "8rT45mqpuDBR1vcnDc9kwP9DrZAXDR4ZeuKWw3u1gTGa",
	"nGME7HgBT6tAJN1f6YuCCngpqT5cvSTndZUVLjQ4jwA", "CzAHrrrHKx9Lxf6wdCMrsZkLvk74c7J2vGv8VYPUmY6v",
	"AzHQ8Bia1grVVbcGyci7wzueSWkgvu7YZVZ4B9rkL5P6", "FiWYY85b58zEEcPtxe3PuqzWPjqBJXqdwgZeqSBmT9Cn",
	"GpxpMVhrBBBEYbEJxdR62w3daWz444V7m6dxYDZKH77D", "3bTGcGB9F98XxnrBNftmmm48JGfPgi5sYxDEKiCjQYk3",
	"8pNBEppa1VcFAsx4Hzq9CpdXUXZjUXbvQwLX2K7QsCwb", "HKJgYGTTYYR2ZkfJKHbn58w676fKueQXmvbtpyvrSM3N",
	"3jnknRabs7G2V9dKhxd2KP85pNWXKXiedYnYxtySnQMs", "4sxwau4mdqZ8zEJsfryXq4QFYnMJSCp3HWuZQod8WU5k",
	"Fg12tB1tz8w6zJSQ4ZAGotWoCztdMJF9hqK8R11pakog", "GEWSkfWgHkpiLbeKaAnwvqnECGdRNf49at5nFccVey7c",
	"CND6ZjRTzaCFVdX7pSSWgjTfHZuhxqFDoUBqWBJguNoA", "2WWb1gRzuXDd5viZLQF7pNRR6Y7UiyeaPpaL35X6j3ve",
	"BUnRE27mYXN9p8H1Ay24GXhJC88q2CuwLoNU2v2CrW4W", "CsUqV42gVQLJwQsKyjWHqGkfHarxn9hcY4YeSjgaaeTd",
	"5khMKAcvmsFaAhoKkdg3u5abvKsmjUQNmhTNP624WB1F", "GpYnVDgB7dzvwSgsjQFeHznjG6Kt1DLBFYrKxjGU1LuD",
	"DQQGPtj7pphPHCLzzBuEyDDQByUcKGrsJdsH7SP3hAug", "FwfaykN7ACnsEUDHANzGHqTGQZMcGnUSsahAHUqbdPrz",
	"JCwT5Ygmq3VeBEbDjL8s8E82Ra2rP9bq45QfZE7Xyaq7", "H3Ni7vG1CsmJZdTvxF7RkAf9UM5qk4RsohJsmPvtZNnu",
	"CVgyXrbEd1ctEuvq11QdpnCQVnPit8NLdhyqXQHLprM2", "EAJJD6nDqtXcZ4DnQb19F9XEz8y8bRDHxbWbahatZNbL",
	"6o5v1HC7WhBnLfRHp8mQTtCP2khdXXjhuyGyYEoy2Suy", "3ZrsTmNM6AkMcqFfv3ryfhQ2jMfqP64RQbqVyAaxqhrQ",
	"6zw7em7uQdmMpuS9fGz8Nq9TLHa5YQhEKKwPjo5PwDK4", "CuatS6njAcfkFHnvai7zXCs7syA9bykXWsDCJEWfhjHG",
	"Hz9nydgN1k15wnwffKX7CSmZp4VFTnTwLXAEdomFGNXy", "Ep5Y58PaSyALPrdFxDVAdfKtVdP55vApvsWjb3jSmXsG",
	"EziVYi3Sv5kJWxmU77PnbrT8jmkVuqwdiFLLzZpLVEn7", "H1rt8KvXkNhQExTRfkY8r9wjZbZ8yCih6J4wQ5Fz9HGP",
	"6nN69B4uZuESZYxr9nrLDjmKRtjDZQXrehwkfQTKw62U", "Hm9JW7of5i9dnrboS8pCUCSeoQUPh7JsP1rkbJnW7An4",
	"5D5NxsNVTgXHyVziwV7mDFwVDS6voaBsyyGxUbhQrhNW", "EMAY24PrS6rWfvpqffFCsTsFJypeeYYmtUc26wdh3Wup",
	"Br3aeVGapRb2xTq17RU2pYZCoJpWA7bq6TKBCcYtMSmt", "BUjkdqUuH5Lz9XzcMcR4DdEMnFG6r8QzUMBm16Rfau96",
	"Es13uD2p64UVPFpEWfDtd6SERdoNR2XVgqBQBZcZSLqW", "AVYpwVou2BhdLivAwLxKPALZQsY7aZNkNmGbP2fZw7RU",
	"DrKzW5koKSZp4mg4BdHLwr72MMXscd2kTiWgckCvvPXz", "9hknftBZAQL4f48tWfk3bUEV5YSLcYYtDRqNmpNnhCWG",
	"GLUmCeJpXB8veNcchPwibkRYwCwvQbKodex5mEjrgToi", "9S2M3UYPpnPZTBtbcUvehYmiWFK3kBhwfzV2iWuwvaVy",
	"HUAkU5psJXZuw54Lrg1ksbXzHv2fzczQ9sNbmisVMeJU", "GK8R4uUmrawcREZ5xJy5dAzVV5V7aFvYg77id37pVTK",
	"4vuWt1oHRqLMhf8Nv1zyEXZsYaeK7dipwrfKLoYU9Riq", "EMhn1U3TMimW3bvWYbPUvN2eZnCfsuBN4LGWhzzYhiWR",
	"BsKsunvENxAraBrL77UfAn1Gi7unVEmQAdCbhsjUN6tU", "CTvhdUVf8KNyMbyEdnvRrBCHJjBKtQwkbj6zwoqcEssG",
	"3fV2GaDKa3pZxyDcpMh5Vrh2FVAMUiWUKbYmnBFv8As3", "4pV47TiPzZ7SSBPHmgUvSLmH9mMSe8tjyPhQZGbi1zPC",
	"P8aKfWQPeRnsZtpBrwWTYzyAoRk74KMz56xc6NEpC4J", "HuqDWJodFhAEWh6aWdsDVUqsjRket5DYXMYyDYtD8hdN",
	"Ab1UcdsFXZVnkSt1Z3vcYU65GQk5MvCbs54SviaiaqHb", "Dc2oHxFXQaC2QfLStuU7txtD3U5HZ82MrCSGDooWjbsv",
	"3iPvAS4xdhYr6SkhVDHCLr7tJjMAFK4wvvHWJxFQVg15", "GmyW1nqYcrw7P7JqrcyP9ivU9hYNbrgZ1r5SYJJH41Fs",
	"E8jcgWvrvV7rwYHJThwfiBeQ8VAH4FgNEEMG9aAuCMAq", "CY7X5o3Wi2eQhTocLmUS6JSWyx1NinBfW7AXRrkRCpi8",
	"HQJtLqvEGGxgNYfRXUurfxV8E1swvCnsbC3456ik27HY", "9xbcBZoGYFnfJZe81EDuDYKUm8xGkjzW8z4EgnVhNvsv",
)

// nonCirculatingWithdrawers are the withdraw authorities of mainnet-beta's auto-staked accounts: stake accounts
// they may withdraw from are non-circulating.
var nonCirculatingWithdrawers = mustPubkeys(
	"8CUUMKYNGxdgYio5CLHRHyzMEhhVRMcqefgE6dLqnVRK", "3FFaheyqtyAXZSYxDzsr5CVKvJuvZD1WE1VEsBtDbRqB",
	"FdGYQdiRky8NZzN9wZtczTBcWLYYRXrJ3LMDhqDPn5rM", "4e6KwQpyzGQPfgVr5Jn3g5jLjbXB4pKPa2jRLohEb1QA",
	"FjiEiVKyMGzSLpqoB27QypukUfyWHrwzPcGNtopzZVdh", "DwbVjia1mYeSGoJipzhaf4L5hfer2DJ1Ys681VzQm5YY",
	"GeMGyvsTEsANVvcT5cme65Xq5MVU8fVVzMQ13KAZFNS2", "Bj3aQ2oFnZYfNR1njzRjmWizzuhvfcYLckh76cqsbuBM",
	"4ZJhPQAgUseCsWhKvJLTmmRRUV74fdoTpQLNfKoekbPY", "HXdYQ5gixrY2H6Y9gqsD8kPM2JQKSaRiohDQtLbZkRWE",
)

func mustPubkeys(ss ...string) []core.Pubkey {
	out := make([]core.Pubkey, len(ss))
	for i, s := range ss {
		out[i] = core.MustParsePubkey(s)
	}
	return out
}

// nonCirculatingSupply lists the bank's non-circulating accounts, ordered by address, and their lamports. The
// reference lists them in a hash set's order, which no client can rely on.
func nonCirculatingSupply(bank *ledger.Bank) ([]core.Pubkey, uint64, error) {
	set := make(map[core.Pubkey]bool, len(nonCirculatingAddresses))
	for _, k := range nonCirculatingAddresses {
		set[k] = true
	}
	clock := bank.Env.Clock
	err := bank.ProgramAccounts(core.StakeProgramID, func(k core.Pubkey, a runtime.Account) bool {
		st, err := stake.Decode(a.Data)
		if err != nil || st.Kind != stake.StateInitialized && st.Kind != stake.StateStake {
			return true
		}
		if st.Meta.Lockup.IsInForce(clock, nil) || slices.Contains(nonCirculatingWithdrawers, st.Meta.Authorized.Withdrawer) {
			set[k] = true
		}
		return true
	})
	if err != nil {
		return nil, 0, err
	}
	keys := make([]core.Pubkey, 0, len(set))
	var lamports uint64
	for k := range set {
		keys = append(keys, k)
		acct, _, err := bank.Account(k)
		if err != nil {
			return nil, 0, err
		}
		lamports += acct.Lamports
	}
	slices.SortFunc(keys, core.Pubkey.Compare)
	return keys, lamports, nil
}
