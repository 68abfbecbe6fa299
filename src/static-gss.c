/*
 * GSSAPI stand-ins for the static binary (make static) only.
 *
 * Debian's libgit2.a is built with HTTP "Negotiate" (Kerberos) support,
 * which refers to these GSSAPI functions, but Debian ships no static
 * Kerberos library, and libgit2.pc does not name it.  ahd-replay never
 * talks to a remote (it reads local repositories only), so libgit2 never
 * reaches this code; should it ever, every call fails as a GSSAPI
 * implementation without mechanisms would (GSS_S_FAILURE), and libgit2
 * reports that authentication is unavailable.  The shared build links
 * the real library and not this file.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>

/* gssapi.h's types, reduced to what the stand-ins need */
typedef uint32_t gss_uint32;
#define GSS_S_COMPLETE 0u
#define GSS_S_FAILURE (13u << 16)

/* libgit2 passes the address of this name type to gss_import_name() */
void *GSS_C_NT_HOSTBASED_SERVICE = NULL;

/* Declared here, defined for the linker only: no header declares them. */
gss_uint32 gss_indicate_mechs(gss_uint32 *minor, void **mechs);
gss_uint32 gss_import_name(gss_uint32 *minor, void *buf, void *type,
			   void **name);
gss_uint32 gss_init_sec_context(gss_uint32 *minor, void *cred, void **ctx,
				void *target, void *mech, gss_uint32 flags,
				gss_uint32 time, void *bindings, void *input,
				void **actual_mech, void *output,
				gss_uint32 *ret_flags, gss_uint32 *ret_time);
gss_uint32 gss_display_status(gss_uint32 *minor, gss_uint32 status,
			      int type, void *mech, gss_uint32 *context,
			      void *out);
gss_uint32 gss_delete_sec_context(gss_uint32 *minor, void **ctx, void *out);
gss_uint32 gss_release_buffer(gss_uint32 *minor, void *buf);
gss_uint32 gss_release_name(gss_uint32 *minor, void **name);
gss_uint32 gss_release_oid_set(gss_uint32 *minor, void **set);

static gss_uint32 unavailable(gss_uint32 *minor)
{
	if (minor)
		*minor = 0;
	return GSS_S_FAILURE;
}

gss_uint32 gss_indicate_mechs(gss_uint32 *minor, void **mechs)
{
	if (mechs)
		*mechs = NULL;
	return unavailable(minor);
}

gss_uint32 gss_import_name(gss_uint32 *minor, void *buf, void *type,
			   void **name)
{
	if (name)
		*name = NULL;
	return unavailable(minor);
}

gss_uint32 gss_init_sec_context(gss_uint32 *minor, void *cred, void **ctx,
				void *target, void *mech, gss_uint32 flags,
				gss_uint32 time, void *bindings, void *input,
				void **actual_mech, void *output,
				gss_uint32 *ret_flags, gss_uint32 *ret_time)
{
	if (actual_mech)
		*actual_mech = NULL;
	return unavailable(minor);
}

gss_uint32 gss_display_status(gss_uint32 *minor, gss_uint32 status,
			      int type, void *mech, gss_uint32 *context,
			      void *out)
{
	/* no further messages: libgit2's loop over them ends here */
	if (context)
		*context = 0;
	return unavailable(minor);
}

gss_uint32 gss_delete_sec_context(gss_uint32 *minor, void **ctx, void *out)
{
	if (minor)
		*minor = 0;
	return GSS_S_COMPLETE;
}

gss_uint32 gss_release_buffer(gss_uint32 *minor, void *buf)
{
	if (minor)
		*minor = 0;
	return GSS_S_COMPLETE;
}

gss_uint32 gss_release_name(gss_uint32 *minor, void **name)
{
	if (minor)
		*minor = 0;
	return GSS_S_COMPLETE;
}

gss_uint32 gss_release_oid_set(gss_uint32 *minor, void **set)
{
	if (minor)
		*minor = 0;
	return GSS_S_COMPLETE;
}
