/*
 * The token through Java's SunPKCS11 provider, each result checked against
 * the JDK's own software providers (SunRsaSign, SunEC, SunJCE): key pairs
 * generated on the token, RSA PKCS#1 v1.5, RSASSA-PSS and ECDSA signatures
 * in both directions, RSA decryption (PKCS#1 v1.5 and OAEP), ECDH, HMAC,
 * AES-GCM and AES-CBC.
 *
 * Usage: java TokenCheck CONFIG PIN. Prints one "ok N - ..." or
 * "not ok N - ..." line per check, and exits 1 if a check failed.
 */
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Security;
import java.security.Signature;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.MGF1ParameterSpec;
import java.security.spec.PSSParameterSpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.KeyAgreement;
import javax.crypto.KeyGenerator;
import javax.crypto.Mac;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.OAEPParameterSpec;
import javax.crypto.spec.PSource;
import javax.crypto.spec.SecretKeySpec;
import sun.security.rsa.RSAPadding;

public final class TokenCheck {
	private static int n;
	private static int failed;
	private static final SecureRandom RNG = new SecureRandom();
	private static Provider tok;

	private static void check(boolean good, String desc) {
		n++;
		System.out.println((good ? "ok " : "not ok ") + n + " - " + desc);
		if (!good)
			failed++;
	}

	private interface Step {
		boolean run() throws Exception;
	}

	/* A check whose exception is a failure, reported with its message. */
	private static void check(String desc, Step step) {
		boolean good;
		try {
			good = step.run();
		} catch (Exception e) {
			System.out.println("# " + desc + ": " + e + (e.getCause() != null ? " caused by " + e.getCause() : ""));
			good = false;
		}
		check(good, desc);
	}

	private static byte[] random(int len) {
		byte[] b = new byte[len];
		RNG.nextBytes(b);
		return b;
	}

	/* The public key as the software provider's own object. */
	private static PublicKey soft(PublicKey k, String alg, String prov)
	    throws GeneralSecurityException {
		return KeyFactory.getInstance(alg, prov)
		    .generatePublic(new X509EncodedKeySpec(k.getEncoded()));
	}

	private static byte[] sign(String alg, Provider p, String prov,
	    PrivateKey k, PSSParameterSpec pss, byte[] msg)
	    throws GeneralSecurityException {
		Signature s = p != null ? Signature.getInstance(alg, p)
		    : Signature.getInstance(alg, prov);
		if (pss != null)
			s.setParameter(pss);
		s.initSign(k);
		s.update(msg);
		return s.sign();
	}

	private static boolean verify(String alg, Provider p, String prov,
	    PublicKey k, PSSParameterSpec pss, byte[] msg, byte[] sig)
	    throws GeneralSecurityException {
		Signature s = p != null ? Signature.getInstance(alg, p)
		    : Signature.getInstance(alg, prov);
		if (pss != null)
			s.setParameter(pss);
		s.initVerify(k);
		s.update(msg);
		return s.verify(sig);
	}

	/*
	 * A signature algorithm both ways: the token signs and software
	 * verifies; software signs with a key of its own and the token
	 * verifies; a changed message is refused by both.
	 */
	private static void signatures(String name, String alg, String prov,
	    KeyPair onToken, KeyPair inSoftware, PSSParameterSpec pss)
	    throws GeneralSecurityException {
		byte[] msg = random(1000);
		byte[] bad = msg.clone();
		bad[17] ^= 1;
		PublicKey tokPub = soft(onToken.getPublic(), onToken.getPublic().getAlgorithm(), prov);
		byte[][] sig = new byte[1][];
		check(name + ": the token signs", () -> {
			sig[0] = sign(alg, tok, null, onToken.getPrivate(), pss, msg);
			return sig[0] != null;
		});
		check(name + ": " + prov + " verifies the token's signature",
		    () -> verify(alg, null, prov, tokPub, pss, msg, sig[0]));
		check(name + ": " + prov + " refuses it on another message",
		    () -> !verify(alg, null, prov, tokPub, pss, bad, sig[0]));
		check(name + ": the token verifies its own signature",
		    () -> verify(alg, tok, null, onToken.getPublic(), pss, msg, sig[0]));
		byte[] softSig = sign(alg, null, prov, inSoftware.getPrivate(), pss, msg);
		check(name + ": the token verifies " + prov + "'s signature",
		    () -> verify(alg, tok, null, inSoftware.getPublic(), pss, msg, softSig));
		check(name + ": the token refuses it on another message",
		    () -> !verify(alg, tok, null, inSoftware.getPublic(), pss, bad, softSig));
	}

	private static void rsa() throws Exception {
		KeyPairGenerator g = KeyPairGenerator.getInstance("RSA", tok);
		g.initialize(2048);
		KeyPair k = g.generateKeyPair();
		check(k.getPrivate().getClass().getName().contains("P11"),
		    "KeyPairGenerator RSA 2048 on the token");
		check(((java.security.interfaces.RSAKey)k.getPublic()).getModulus().bitLength() == 2048,
		    "the RSA modulus has 2048 bits");
		KeyPairGenerator sg = KeyPairGenerator.getInstance("RSA", "SunRsaSign");
		sg.initialize(2048);
		KeyPair s = sg.generateKeyPair();

		signatures("SHA256withRSA", "SHA256withRSA", "SunRsaSign", k, s, null);
		PSSParameterSpec pss = new PSSParameterSpec("SHA-256", "MGF1",
		    MGF1ParameterSpec.SHA256, 32, PSSParameterSpec.TRAILER_FIELD_BC);
		signatures("RSASSA-PSS (SHA-256, MGF1, salt 32)", "RSASSA-PSS", "SunRsaSign", k, s, pss);

		byte[] pt = "a secret for the token".getBytes(StandardCharsets.UTF_8);
		PublicKey pub = soft(k.getPublic(), "RSA", "SunRsaSign");

		Cipher enc = Cipher.getInstance("RSA/ECB/PKCS1Padding", "SunJCE");
		enc.init(Cipher.ENCRYPT_MODE, pub);
		byte[] ct1 = enc.doFinal(pt);
		check("RSA/ECB/PKCS1Padding: SunJCE encrypts, the token decrypts", () -> {
			Cipher dec = Cipher.getInstance("RSA/ECB/PKCS1Padding", tok);
			dec.init(Cipher.DECRYPT_MODE, k.getPrivate());
			return Arrays.equals(dec.doFinal(ct1), pt);
		});

		/*
		 * OAEP: SunPKCS11 in JDK 17 has no OAEP cipher. The token does the
		 * private-key operation (RSA/ECB/NoPadding, CKM_RSA_X_509) and
		 * the JDK's own OAEP decoding removes the padding.
		 */
		OAEPParameterSpec oaep = new OAEPParameterSpec("SHA-256", "MGF1",
		    MGF1ParameterSpec.SHA256, PSource.PSpecified.DEFAULT);
		enc = Cipher.getInstance("RSA/ECB/OAEPWithSHA-256AndMGF1Padding", "SunJCE");
		enc.init(Cipher.ENCRYPT_MODE, pub, oaep);
		byte[] ct2 = enc.doFinal(pt);
		check("RSA/ECB/OAEPWithSHA-256AndMGF1Padding: SunJCE encrypts, the token's RSA decryption and the JDK's OAEP decoding give the plaintext", () -> {
			Cipher dec = Cipher.getInstance("RSA/ECB/NoPadding", tok);
			dec.init(Cipher.DECRYPT_MODE, k.getPrivate());
			byte[] em = dec.doFinal(ct2);
			byte[] full = new byte[256];
			System.arraycopy(em, 0, full, 256 - em.length, em.length);
			RSAPadding p = RSAPadding.getInstance(RSAPadding.PAD_OAEP_MGF1,
			    256, RNG, oaep);
			return Arrays.equals(p.unpad(full), pt);
		});
	}

	private static void ec() throws Exception {
		KeyPairGenerator g = KeyPairGenerator.getInstance("EC", tok);
		g.initialize(new ECGenParameterSpec("secp256r1"));
		KeyPair k = g.generateKeyPair();
		check(k.getPrivate().getClass().getName().contains("P11"),
		    "KeyPairGenerator EC secp256r1 on the token");
		KeyPairGenerator sg = KeyPairGenerator.getInstance("EC", "SunEC");
		sg.initialize(new ECGenParameterSpec("secp256r1"));
		KeyPair s = sg.generateKeyPair();

		signatures("SHA256withECDSA", "SHA256withECDSA", "SunEC", k, s, null);

		check("ECDH: the token and SunEC agree on the secret", () -> {
			KeyAgreement a = KeyAgreement.getInstance("ECDH", tok);
			a.init(k.getPrivate());
			a.doPhase(s.getPublic(), true);
			byte[] z1 = a.generateSecret();
			KeyAgreement b = KeyAgreement.getInstance("ECDH", "SunEC");
			b.init(s.getPrivate());
			b.doPhase(soft(k.getPublic(), "EC", "SunEC"), true);
			byte[] z2 = b.generateSecret();
			return z1.length == 32 && Arrays.equals(z1, z2);
		});
	}

	private static byte[] crypt(String alg, Object prov, int mode, Key key,
	    java.security.spec.AlgorithmParameterSpec spec, byte[] aad, byte[] in)
	    throws GeneralSecurityException {
		Cipher c = prov instanceof Provider ? Cipher.getInstance(alg, (Provider)prov)
		    : Cipher.getInstance(alg, (String)prov);
		c.init(mode, key, spec);
		if (aad != null)
			c.updateAAD(aad);
		return c.doFinal(in);
	}

	private static void secret() throws Exception {
		byte[] hk = random(32);
		byte[] msg = random(777);
		check("HmacSHA256: the token and SunJCE give the same tag", () -> {
			Mac a = Mac.getInstance("HmacSHA256", tok);
			a.init(new SecretKeySpec(hk, "HmacSHA256"));
			Mac b = Mac.getInstance("HmacSHA256", "SunJCE");
			b.init(new SecretKeySpec(hk, "HmacSHA256"));
			return Arrays.equals(a.doFinal(msg), b.doFinal(msg));
		});

		KeyGenerator g = KeyGenerator.getInstance("AES", tok);
		g.init(256);
		SecretKey gen = g.generateKey();
		check(gen.getClass().getName().contains("P11"), "KeyGenerator AES-256 on the token");

		check(tok.getService("Cipher", "AES/GCM/NoPadding") != null,
		    "the provider offers AES/GCM/NoPadding (the token lists CKM_AES_GCM)");
		check(tok.getService("Cipher", "AES/CBC/PKCS5Padding") != null,
		    "the provider offers AES/CBC/PKCS5Padding (the token lists CKM_AES_CBC_PAD)");
		byte[] kv = random(32);
		SecretKeySpec key = new SecretKeySpec(kv, "AES");
		byte[] iv = random(12);
		byte[] aad = random(20);
		GCMParameterSpec gcm = new GCMParameterSpec(128, iv);
		check("AES/GCM/NoPadding: the token's ciphertext and tag are SunJCE's", () ->
		    Arrays.equals(crypt("AES/GCM/NoPadding", tok, Cipher.ENCRYPT_MODE, key, gcm, aad, msg),
			crypt("AES/GCM/NoPadding", "SunJCE", Cipher.ENCRYPT_MODE, key, gcm, aad, msg)));
		check("AES/GCM/NoPadding: the token decrypts SunJCE's ciphertext", () -> {
			byte[] ct = crypt("AES/GCM/NoPadding", "SunJCE", Cipher.ENCRYPT_MODE, key, gcm, aad, msg);
			return Arrays.equals(crypt("AES/GCM/NoPadding", tok, Cipher.DECRYPT_MODE, key, gcm, aad, ct), msg);
		});
		check("AES/GCM/NoPadding: the token refuses a changed tag", () -> {
			byte[] ct = crypt("AES/GCM/NoPadding", "SunJCE", Cipher.ENCRYPT_MODE, key, gcm, aad, msg);
			ct[ct.length - 1] ^= 1;
			try {
				crypt("AES/GCM/NoPadding", tok, Cipher.DECRYPT_MODE, key, gcm, aad, ct);
				return false;
			} catch (javax.crypto.AEADBadTagException e) {
				return true;
			}
		});
		check("AES/GCM/NoPadding with the token-generated key: round trip", () -> {
			byte[] ct = crypt("AES/GCM/NoPadding", tok, Cipher.ENCRYPT_MODE, gen, gcm, aad, msg);
			return Arrays.equals(crypt("AES/GCM/NoPadding", tok, Cipher.DECRYPT_MODE, gen, gcm, aad, ct), msg);
		});
		IvParameterSpec cbc = new IvParameterSpec(random(16));
		check("AES/CBC/PKCS5Padding: the token's ciphertext is SunJCE's", () ->
		    Arrays.equals(crypt("AES/CBC/PKCS5Padding", tok, Cipher.ENCRYPT_MODE, key, cbc, null, msg),
			crypt("AES/CBC/PKCS5Padding", "SunJCE", Cipher.ENCRYPT_MODE, key, cbc, null, msg)));
		check("AES/CBC/PKCS5Padding: the token decrypts SunJCE's ciphertext", () -> {
			byte[] ct = crypt("AES/CBC/PKCS5Padding", "SunJCE", Cipher.ENCRYPT_MODE, key, cbc, null, msg);
			return Arrays.equals(crypt("AES/CBC/PKCS5Padding", tok, Cipher.DECRYPT_MODE, key, cbc, null, ct), msg);
		});
	}

	public static void main(String[] args) throws Exception {
		tok = Security.getProvider("SunPKCS11").configure(args[0]);
		Security.addProvider(tok);
		KeyStore ks = KeyStore.getInstance("PKCS11", tok);
		ks.load(null, args[1].toCharArray());
		check(true, "logged in to the token through KeyStore PKCS11");
		rsa();
		ec();
		secret();
		System.out.println(failed == 0 ? n + " checks passed" : failed + " of " + n + " checks failed");
		System.exit(failed == 0 ? 0 : 1);
	}
}
