/*
 * HMAC_DRBG (SHA-256) and the fork-safe generator: NIST CAVP known answers,
 * length limits, the reseed interval, long requests, fork safety and
 * mixing.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <pthread.h>

#include "crypto/ct.h"
#include "crypto/drbg.h"

/*
 * NIST CAVP DRBG test vectors, HMAC_DRBG.rsp (CAVS 14.3), [SHA-256],
 * PredictionResistance = False, 1024 returned bits: from
 * drbgvectors_no_reseed (reseed = 0) and drbgvectors_pr_false
 * (reseed = 1). Each test instantiates (entropy, nonce, pers), reseeds if
 * asked (entropy_reseed, addl_reseed), generates twice (addl1, addl2) and
 * compares the second output.
 */
struct kat {
	const char *name;
	int reseed;
	const char *entropy, *nonce, *pers, *entropy_reseed, *addl_reseed;
	const char *addl1, *addl2, *returned;
};

static const struct kat kats[] = {
	{ "no reseed, no pers, no addl (SHA-256,256+128,0,0) #1", 0,
	    "79737479ba4e7642a221fcfd1b820b134e9e3540a35bb48ffae29c20f5418ea3",
	    "3593259c092bef4129bc2c6c9e19f343",
	    "",
	    "",
	    "",
	    "",
	    "",
	    "cf5ad5984f9e43917aa9087380dac46e410ddc8a7731859c84e9d0f31bd43655"
	    "b924159413e2293b17610f211e09f770f172b8fb693a35b85d3b9e5e63b1dc25"
	    "2ac0e115002e9bedfb4b5b6fd43f33b8e0eafb2d072e1a6fee1f159df9b51e6c"
	    "8da737e60d5032dd30544ec51558c6f080bdbdab1de8a939e961e06b5f1aca37",
	},
	{ "no reseed, addl (SHA-256,256+128,0,256) #0", 0,
	    "d3cc4d1acf3dde0c4bd2290d262337042dc632948223d3a2eaab87da44295fbd",
	    "0109b0e729f457328aa18569a9224921",
	    "",
	    "",
	    "",
	    "3c311848183c9a212a26f27f8c6647e40375e466a0857cc39c4e47575d53f1f6",
	    "fcb9abd19ccfbccef88c9c39bfb3dd7b1c12266c9808992e305bc3cff566e4e4",
	    "9c7b758b212cd0fcecd5daa489821712e3cdea4467b560ef5ddc24ab47749a1f"
	    "1ffdbbb118f4e62fcfca3371b8fbfc5b0646b83e06bfbbab5fac30ea09ea2bc7"
	    "6f1ea568c9be0444b2cc90517b20ca825f2d0eccd88e7175538b85d90ab39018"
	    "3ca6395535d34473af6b5a5b88f5a59ee7561573337ea819da0dcc3573a22974",
	},
	{ "no reseed, pers (SHA-256,256+128,256,0) #14", 0,
	    "8ca4a964e1ff68753db86753d09222e09b888b500be46f2a3830afa9172a1d6d",
	    "a59394e0af764e2f21cf751f623ffa6c",
	    "eb8164b3bf6c1750a8de8528af16cffdf400856d82260acd5958894a98afeed5",
	    "",
	    "",
	    "",
	    "",
	    "fc5701b508f0264f4fdb88414768e1afb0a5b445400dcfdeddd0eba67b4fea8c"
	    "056d79a69fd050759fb3d626b29adb8438326fd583f1ba0475ce7707bd294ab0"
	    "1743d077605866425b1cbd0f6c7bba972b30fbe9fce0a719b044fcc139435489"
	    "5a9f8304a2b5101909808ddfdf66df6237142b6566588e4e1e8949b90c27fc1f",
	},
	{ "no reseed, pers + addl (SHA-256,256+128,256,256) #0", 0,
	    "5d3286bc53a258a53ba781e2c4dcd79a790e43bbe0e89fb3eed39086be34174b",
	    "c5422294b7318952ace7055ab7570abf",
	    "2dba094d008e150d51c4135bb2f03dcde9cbf3468a12908a1b025c120c985b9d",
	    "",
	    "",
	    "793a7ef8f6f0482beac542bb785c10f8b7b406a4de92667ab168ecc2cf7573c6",
	    "2238cdb4e23d629fe0c2a83dd8d5144ce1a6229ef41dabe2a99ff722e510b530",
	    "d04678198ae7e1aeb435b45291458ffde0891560748b43330eaf866b5a6385e7"
	    "4c6fa5a5a44bdb284d436e98d244018d6acedcdfa2e9f499d8089e4db86ae89a"
	    "6ab2d19cb705e2f048f97fb597f04106a1fa6a1416ad3d859118e079a0c319eb"
	    "95686f4cbcce3b5101c7a0b010ef029c4ef6d06cdfac97efb9773891688c37cf",
	},
	{ "reseed, addl (PR False, SHA-256, 0, 256) #1", 1,
	    "1bea3296f24e9242b96ed00648ac6255007c91f7c1a5088b2482c28c834942bf",
	    "71073136a5cc1eb5b5fa09e1790a0bed",
	    "",
	    "d714329f3fbea1df9d0b0b0d88dfe3774beb63d011935923d048e521b710dc6f",
	    "4ef872fd211a426ea1085ab39eb220cc698fdfeabe49b8835d620ab7885de7a4",
	    "d74d1669e89875852d9ccbf11c20fe3c13a621ebcb3f7edeea39a2b3379fdcf5",
	    "0c8aa67ca310bd8e58c16aba35880f747266dbf624e88ec8f9ee9be5d08fdeb1",
	    "ce95b98f13adcdf7a32aa34709d6e02f658ae498d2ab01ce920f69e7e42c4be1"
	    "d005acf0ca6b17891dfafc620dd4cd3894f8492a5c846089b9b452483eb0b91f"
	    "3649ec0b6f98d1aaabc2e42cd39c2b25081b85ab50cb723007a0fd83550f32c2"
	    "10b7c4150b5a6bb3b0c9e3c971a09d43acb48e410a77f824b957092aa8ef98bc",
	},
	{ "reseed, pers (PR False, SHA-256, 256, 0) #0", 1,
	    "fa0ee1fe39c7c390aa94159d0de97564342b591777f3e5f6a4ba2aea342ec840",
	    "dd0820655cb2ffdb0da9e9310a67c9e5",
	    "f2e58fe60a3afc59dad37595415ffd318ccf69d67780f6fa0797dc9aa43e144c",
	    "e0629b6d7975ddfa96a399648740e60f1f9557dc58b3d7415f9ba9d4dbb501f6",
	    "",
	    "",
	    "",
	    "f92d4cf99a535b20222a52a68db04c5af6f5ffc7b66a473a37a256bd8d298f9b"
	    "4aa4af7e8d181e02367903f93bdb744c6c2f3f3472626b40ce9bd6a70e7b8f93"
	    "992a16a76fab6b5f162568e08ee6c3e804aefd952ddd3acb791c50f2ad69e9a0"
	    "4028a06a9c01d3a62aca2aaf6efe69ed97a016213a2dd642b4886764072d9cbe",
	},
	{ "reseed, pers + addl (PR False, SHA-256, 256, 256) #0", 1,
	    "cdb0d9117cc6dbc9ef9dcb06a97579841d72dc18b2d46a1cb61e314012bdf416",
	    "d0c0d01d156016d0eb6b7e9c7c3c8da8",
	    "6f0fb9eab3f9ea7ab0a719bfa879bf0aaed683307fda0c6d73ce018b6e34faaa",
	    "8ec6f7d5a8e2e88f43986f70b86e050d07c84b931bcf18e601c5a3eee3064c82",
	    "1ab4ca9014fa98a55938316de8ba5a68c629b0741bdd058c4d70c91cda5099b3",
	    "16e2d0721b58d839a122852abd3bf2c942a31c84d82fca74211871880d7162ff",
	    "53686f042a7b087d5d2eca0d2a96de131f275ed7151189f7ca52deaa78b79fb2",
	    "dda04a2ca7b8147af1548f5d086591ca4fd951a345ce52b3cd49d47e84aa31a1"
	    "83e31fbc42a1ff1d95afec7143c8008c97bc2a9c091df0a763848391f68cb4a3"
	    "66ad89857ac725a53b303ddea767be8dc5f605b1b95f6d24c9f06be65a973a08"
	    "9320b3cc42569dcfd4b92b62a993785b0301b3fc452445656fce22664827b88f",
	},
};

static size_t
unhex(uint8_t *out, size_t cap, const char *hex)
{
	size_t n = 0;
	unsigned hi, lo;

	while (hex[0] != '\0' && hex[1] != '\0') {
		hi = (unsigned)(hex[0] <= '9' ? hex[0] - '0' : (hex[0] | 0x20) - 'a' + 10);
		lo = (unsigned)(hex[1] <= '9' ? hex[1] - '0' : (hex[1] | 0x20) - 'a' + 10);
		assert_true(n < cap);
		out[n++] = (uint8_t)(hi << 4 | lo);
		hex += 2;
	}
	return n;
}

static void
run_kat(const struct kat *k, int nonce_in_entropy)
{
	uint8_t seed[64], nonce[32], pers[64], er[64], ar[64], a1[64], a2[64];
	uint8_t want[128], got[128];
	size_t el, nl, pl, erl, arl, a1l, a2l;
	struct vg_drbg d;

	el = unhex(seed, sizeof seed, k->entropy);
	nl = unhex(nonce, sizeof nonce, k->nonce);
	pl = unhex(pers, sizeof pers, k->pers);
	erl = unhex(er, sizeof er, k->entropy_reseed);
	arl = unhex(ar, sizeof ar, k->addl_reseed);
	a1l = unhex(a1, sizeof a1, k->addl1);
	a2l = unhex(a2, sizeof a2, k->addl2);
	assert_int_equal(unhex(want, sizeof want, k->returned), sizeof want);

	if (nonce_in_entropy) {
		/* entropy || nonce as one entropy input: the same seed. */
		memcpy(seed + el, nonce, nl);
		assert_int_equal(vg_drbg_instantiate(&d, seed, el + nl, NULL,
		    0, pers, pl), VG_OK);
	} else {
		assert_int_equal(vg_drbg_instantiate(&d, seed, el, nonce, nl,
		    pl ? pers : NULL, pl), VG_OK);
	}
	assert_int_equal(d.reseed_counter, 1);
	if (k->reseed)
		assert_int_equal(vg_drbg_reseed(&d, er, erl, ar, arl), VG_OK);
	assert_int_equal(vg_drbg_generate(&d, got, sizeof got,
	    a1l ? a1 : NULL, a1l), VG_OK);
	assert_int_equal(vg_drbg_generate(&d, got, sizeof got, a2, a2l), VG_OK);
	assert_int_equal(d.reseed_counter, 3);
	if (memcmp(got, want, sizeof want) != 0)
		fail_msg("KAT mismatch: %s", k->name);
	vg_drbg_wipe(&d);
	assert_int_equal(d.reseed_counter, 0);
}

static void
test_kat(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof kats / sizeof kats[0]; i++) {
		run_kat(&kats[i], 0);
		run_kat(&kats[i], 1);
	}
}

/* Splitting a request or the output buffer must not change the stream
 * within one generate call; two calls differ from one. */
static void
test_generate_lengths(void **state)
{
	static uint8_t big[VG_DRBG_MAX_REQUEST + 1];
	uint8_t seed[VG_DRBG_SEED_LEN] = { 1 }, a[100], b[100];
	struct vg_drbg d, e;

	(void)state;
	assert_int_equal(vg_drbg_instantiate(&d, seed, 32, seed + 32, 16,
	    NULL, 0), VG_OK);
	e = d;
	assert_int_equal(vg_drbg_generate(&d, a, 100, NULL, 0), VG_OK);
	assert_int_equal(vg_drbg_generate(&e, b, 33, NULL, 0), VG_OK);
	assert_memory_equal(a, b, 33); /* a prefix of the same blocks */
	assert_int_equal(vg_drbg_generate(&e, b, 100, NULL, 0), VG_OK);
	assert_memory_not_equal(a, b, 100);

	/* 0 bytes is a valid request; it still steps the state. */
	assert_int_equal(vg_drbg_generate(&d, NULL, 0, NULL, 0), VG_OK);

	/* The largest request, then one byte more. */
	big[VG_DRBG_MAX_REQUEST] = 0xa5;
	assert_int_equal(vg_drbg_generate(&d, big, VG_DRBG_MAX_REQUEST, NULL,
	    0), VG_OK);
	assert_int_equal(big[VG_DRBG_MAX_REQUEST], 0xa5);
	memset(big, 0x5a, sizeof big);
	e = d;
	assert_int_equal(vg_drbg_generate(&d, big, VG_DRBG_MAX_REQUEST + 1,
	    NULL, 0), VG_ERR_LENGTH);
	assert_int_equal(big[0], 0x5a);
	assert_memory_equal(&d, &e, sizeof d); /* state unchanged */
	assert_int_equal(vg_drbg_generate(&d, big, SIZE_MAX, NULL, 0),
	    VG_ERR_LENGTH);
	vg_drbg_wipe(&d);
	vg_drbg_wipe(&e);
}

static void
test_bad_args(void **state)
{
	uint8_t seed[64] = { 7 }, out[16];
	struct vg_drbg d;

	(void)state;
	/* Entropy shorter than the security strength. */
	assert_int_equal(vg_drbg_instantiate(&d, seed, 31, seed + 32, 16,
	    NULL, 0), VG_ERR_LENGTH);
	assert_int_equal(d.reseed_counter, 0);
	/* Not enough for entropy plus nonce. */
	assert_int_equal(vg_drbg_instantiate(&d, seed, 32, seed + 32, 15,
	    NULL, 0), VG_ERR_LENGTH);
	assert_int_equal(vg_drbg_instantiate(&d, seed, 47, NULL, 0, NULL, 0),
	    VG_ERR_LENGTH);
	/* NULL with a length. */
	assert_int_equal(vg_drbg_instantiate(&d, NULL, 32, seed, 16, NULL, 0),
	    VG_ERR_ARG);
	assert_int_equal(vg_drbg_instantiate(&d, seed, 32, NULL, 16, NULL, 0),
	    VG_ERR_ARG);
	assert_int_equal(vg_drbg_instantiate(&d, seed, 32, seed, 16, NULL, 1),
	    VG_ERR_ARG);
	assert_int_equal(vg_drbg_instantiate(NULL, seed, 32, seed, 16, NULL,
	    0), VG_ERR_ARG);
#if SIZE_MAX > 0xffffffffu
	assert_int_equal(vg_drbg_instantiate(&d, seed, 32, seed, 16, seed,
	    (size_t)VG_DRBG_MAX_INPUT + 1), VG_ERR_LENGTH);
#endif

	/* Not instantiated. */
	memset(&d, 0, sizeof d);
	assert_int_equal(vg_drbg_generate(&d, out, sizeof out, NULL, 0),
	    VG_ERR_ARG);
	assert_int_equal(vg_drbg_reseed(&d, seed, 32, NULL, 0), VG_ERR_ARG);

	assert_int_equal(vg_drbg_instantiate(&d, seed, 48, NULL, 0, NULL, 0),
	    VG_OK);
	assert_int_equal(vg_drbg_generate(&d, NULL, 1, NULL, 0), VG_ERR_ARG);
	assert_int_equal(vg_drbg_generate(&d, out, 1, NULL, 1), VG_ERR_ARG);
	assert_int_equal(vg_drbg_reseed(&d, seed, 31, NULL, 0), VG_ERR_LENGTH);
	assert_int_equal(vg_drbg_reseed(&d, NULL, 32, NULL, 0), VG_ERR_ARG);
	assert_int_equal(vg_drbg_reseed(&d, seed, 32, NULL, 3), VG_ERR_ARG);
	assert_int_equal(vg_drbg_reseed(&d, seed, 32, seed, 3), VG_OK);
	vg_drbg_wipe(&d);
	assert_int_equal(vg_drbg_generate(&d, out, sizeof out, NULL, 0),
	    VG_ERR_ARG);
	vg_drbg_wipe(NULL);

	assert_int_equal(vg_entropy(NULL, 1), VG_ERR_ARG);
	assert_int_equal(vg_entropy(NULL, 0), VG_OK);
}

/* The reseed interval: the last allowed call succeeds, the next one asks
 * for a reseed and writes nothing. */
static void
test_reseed_interval(void **state)
{
	uint8_t seed[48] = { 3 }, out[16], zero[16] = { 0 };
	struct vg_drbg d;

	(void)state;
	assert_int_equal(vg_drbg_instantiate(&d, seed, 48, NULL, 0, NULL, 0),
	    VG_OK);
	d.reseed_counter = VG_DRBG_RESEED_INTERVAL;
	assert_int_equal(vg_drbg_generate(&d, out, sizeof out, NULL, 0),
	    VG_OK);
	memset(out, 0, sizeof out);
	assert_int_equal(vg_drbg_generate(&d, out, sizeof out, NULL, 0),
	    VG_ERR_RANDOM);
	assert_memory_equal(out, zero, sizeof out);
	assert_int_equal(vg_drbg_reseed(&d, seed, 32, NULL, 0), VG_OK);
	assert_int_equal(d.reseed_counter, 1);
	assert_int_equal(vg_drbg_generate(&d, out, sizeof out, NULL, 0),
	    VG_OK);
	vg_drbg_wipe(&d);
}

static void
test_entropy(void **state)
{
	uint8_t a[32], b[32];
	uint8_t *big;
	size_t i, zeros = 0;

	(void)state;
	assert_int_equal(vg_entropy(a, sizeof a), VG_OK);
	assert_int_equal(vg_entropy(b, sizeof b), VG_OK);
	assert_memory_not_equal(a, b, sizeof a);
	big = malloc(1 << 20);
	assert_non_null(big);
	memset(big, 0, 1 << 20);
	assert_int_equal(vg_entropy(big, 1 << 20), VG_OK);
	for (i = 0; i < (1 << 20); i++)
		zeros += big[i] == 0;
	assert_true(zeros < 8192); /* expected 4096 */
	free(big);
}

/* More than one DRBG request: 200000 bytes in one call, split in 64 KiB
 * requests; the pieces must not repeat one another. */
static void
test_rng_long(void **state)
{
	const size_t len = 200000;
	uint8_t *buf, *again;
	struct vg_rng r;
	size_t i, zeros = 0;

	(void)state;
	assert_int_equal(vg_rng_init(&r), VG_OK);
	assert_int_equal(r.ready, 1);
	assert_true(r.fork_gen == vg_fork_generation());
	buf = calloc(1, len + 1);
	again = calloc(1, len);
	assert_non_null(buf);
	assert_non_null(again);
	buf[len] = 0xee;
	assert_int_equal(vg_rng_generate(&r, buf, len), VG_OK);
	assert_int_equal(buf[len], 0xee);
	for (i = 0; i < len; i++)
		zeros += buf[i] == 0;
	assert_true(zeros < 2 * len / 256);
	for (i = VG_DRBG_MAX_REQUEST; i + 64 <= len; i += VG_DRBG_MAX_REQUEST)
		assert_memory_not_equal(buf, buf + i, 64);
	/* 3 full requests and one of 3392 bytes. */
	assert_int_equal(r.d.reseed_counter, 1 + 4);
	assert_int_equal(vg_rng_generate(&r, again, len), VG_OK);
	assert_memory_not_equal(buf, again, len);
	assert_int_equal(vg_rng_generate(&r, NULL, 0), VG_OK);
	assert_int_equal(vg_rng_generate(&r, NULL, 1), VG_ERR_ARG);
	free(buf);
	free(again);
	vg_rng_wipe(&r);
	assert_int_equal(r.ready, 0);
	assert_int_equal(vg_rng_generate(&r, NULL, 0), VG_ERR_ARG);
	assert_int_equal(vg_rng_mix(&r, "x", 1), VG_ERR_ARG);
	assert_int_equal(vg_rng_init(NULL), VG_ERR_ARG);
	vg_rng_wipe(NULL);
}

/* vg_rng reseeds by itself when the interval runs out. */
static void
test_rng_interval(void **state)
{
	uint8_t out[64];
	struct vg_rng r, copy;

	(void)state;
	assert_int_equal(vg_rng_init(&r), VG_OK);
	r.d.reseed_counter = VG_DRBG_RESEED_INTERVAL + 1;
	copy = r;
	assert_int_equal(vg_rng_generate(&r, out, sizeof out), VG_OK);
	assert_int_equal(r.d.reseed_counter, 2);
	assert_memory_not_equal(r.d.K, copy.d.K, sizeof r.d.K);
	vg_rng_wipe(&r);
	vg_rng_wipe(&copy);
}

/* Threads of a child that read the generation at once (the first reads
 * in the child race to bump it). */
static void *
read_gen(void *arg)
{
	*(uint64_t *)arg = vg_fork_generation();
	return NULL;
}

/*
 * The child of fork(): 0 when its generation differs from the parent's
 * (gen), is the same for four threads that read it first at once and on
 * every later read, and differs again in its own child.
 */
static int
fork_gen_child(uint64_t gen)
{
	pthread_t t[4];
	uint64_t got[4], mine;
	int status, i, bad = 0;
	pid_t pid;

	for (i = 0; i < 4; i++)
		if (pthread_create(&t[i], NULL, read_gen, &got[i]) != 0)
			return 1;
	for (i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	mine = vg_fork_generation();
	for (i = 0; i < 4; i++)
		bad |= got[i] != mine;
	if (bad || mine == gen || vg_fork_generation() != mine)
		return 2;
	pid = fork();
	if (pid < 0)
		return 3;
	if (pid == 0)
		_exit(vg_fork_generation() != mine &&
		    vg_fork_generation() != gen ? 0 : 1);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		return 4;
	return vg_fork_generation() == mine ? 0 : 5;
}

/* vg_fork_generation: the same in a process, different after fork(). */
static void
test_fork_generation(void **state)
{
	uint64_t gen = vg_fork_generation();
	int status;
	pid_t pid;

	(void)state;
	assert_true(vg_fork_generation() == gen);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(fork_gen_child(gen));
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	/* the parent's is unchanged by its child's */
	assert_true(vg_fork_generation() == gen);
}

/*
 * After fork() the child's state is a copy of the parent's. The child
 * sends back two things: what a copy of the inherited DRBG would produce
 * without reseeding (this must equal the parent's next output: the test
 * can see a missing reseed) and what vg_rng_generate gave it (this must
 * differ).
 */
static void
test_rng_fork(void **state)
{
	uint8_t mine[32], theirs[64];
	struct vg_rng r;
	int fds[2], status;
	pid_t pid;
	size_t got = 0;
	ssize_t n;

	(void)state;
	assert_int_equal(vg_rng_init(&r), VG_OK);
	assert_int_equal(vg_rng_generate(&r, mine, sizeof mine), VG_OK);
	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		uint8_t msg[64];
		struct vg_drbg stale = r.d;
		int ok;

		close(fds[0]);
		ok = vg_drbg_generate(&stale, msg, 32, NULL, 0) == VG_OK &&
		    vg_rng_generate(&r, msg + 32, 32) == VG_OK &&
		    r.fork_gen == vg_fork_generation();
		if (ok && write(fds[1], msg, sizeof msg) == (ssize_t)sizeof msg)
			_exit(0);
		_exit(1);
	}
	close(fds[1]);
	assert_int_equal(vg_rng_generate(&r, mine, sizeof mine), VG_OK);
	while (got < sizeof theirs) {
		n = read(fds[0], theirs + got, sizeof theirs - got);
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_int_equal(got, sizeof theirs);
	assert_memory_equal(mine, theirs, 32);
	assert_memory_not_equal(mine, theirs + 32, 32);
	vg_rng_wipe(&r);
}

static void
test_rng_mix(void **state)
{
	static const char k[] = "the same constant";
	uint8_t a[64], b[64];
	struct vg_rng r, s, t, u;

	(void)state;
	assert_int_equal(vg_rng_init(&r), VG_OK);

	/* Mixing changes the stream: s is a clone of r, then r mixes. */
	s = r;
	assert_int_equal(vg_rng_mix(&r, k, sizeof k), VG_OK);
	assert_int_equal(vg_rng_generate(&r, a, sizeof a), VG_OK);
	assert_int_equal(vg_rng_generate(&s, b, sizeof b), VG_OK);
	assert_memory_not_equal(a, b, sizeof a);

	/* The same constant mixed into two generators leaves them apart,
	 * both for independent generators and for two clones of one state
	 * (the input is added to the state with fresh entropy, never used as
	 * a replacement seed). */
	assert_int_equal(vg_rng_init(&t), VG_OK);
	u = t;
	assert_int_equal(vg_rng_mix(&t, k, sizeof k), VG_OK);
	assert_int_equal(vg_rng_mix(&u, k, sizeof k), VG_OK);
	assert_memory_not_equal(&t.d, &u.d, sizeof t.d);
	assert_int_equal(vg_rng_mix(&s, k, sizeof k), VG_OK);
	assert_int_equal(vg_rng_generate(&t, a, sizeof a), VG_OK);
	assert_int_equal(vg_rng_generate(&u, b, sizeof b), VG_OK);
	assert_memory_not_equal(a, b, sizeof a);
	assert_int_equal(vg_rng_generate(&s, b, sizeof b), VG_OK);
	assert_memory_not_equal(a, b, sizeof a);

	/* Empty input is a plain reseed; bad arguments. */
	assert_int_equal(vg_rng_mix(&r, NULL, 0), VG_OK);
	assert_int_equal(vg_rng_mix(&r, NULL, 1), VG_ERR_ARG);
	assert_int_equal(vg_rng_mix(NULL, k, 1), VG_ERR_ARG);
#if SIZE_MAX > 0xffffffffu
	assert_int_equal(vg_rng_mix(&r, k, (size_t)VG_DRBG_MAX_INPUT + 1),
	    VG_ERR_LENGTH);
#endif
	vg_rng_wipe(&r);
	vg_rng_wipe(&s);
	vg_rng_wipe(&t);
	vg_rng_wipe(&u);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kat),
		cmocka_unit_test(test_generate_lengths),
		cmocka_unit_test(test_bad_args),
		cmocka_unit_test(test_reseed_interval),
		cmocka_unit_test(test_entropy),
		cmocka_unit_test(test_rng_long),
		cmocka_unit_test(test_rng_interval),
		cmocka_unit_test(test_fork_generation),
		cmocka_unit_test(test_rng_fork),
		cmocka_unit_test(test_rng_mix),
	};

	return cmocka_run_group_tests_name("drbg", tests, NULL, NULL);
}
