<?xml version="1.0"?>
<!-- SPDX-License-Identifier: GPL-2.0-or-later -->
<!-- The module README from modules/ovc/doc/ovc.xml, the way Kamailio
     makes a module's README (doc/docbook/readme.xsl there): docbook-xsl's
     single-file XHTML with the same settings, dumped as plain text by
     lynx (scripts/docs/gen-readme.sh). The docbook-xsl stylesheet is found
     through the system's XML catalog (Debian's docbook-xsl package). -->
<xsl:stylesheet xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
	version="1.0">

	<xsl:import
		href="http://docbook.sourceforge.net/release/xsl/current/xhtml/docbook.xsl"/>

	<xsl:output method="xml" encoding="UTF-8"/>

	<!-- as Kamailio's readme.xsl, txt.xsl and html.common.xsl -->
	<xsl:param name="section.autolabel">1</xsl:param>
	<xsl:param name="section.label.includes.component.label">1</xsl:param>
	<xsl:param name="generate.toc">book toc,title,figure,table,example</xsl:param>
	<xsl:param name="toc.section.depth">4</xsl:param>
	<xsl:param name="generate.section.toc.level">1</xsl:param>
	<xsl:param name="html.cleanup" select="1"/>
	<xsl:param name="css.decoration">0</xsl:param>
	<xsl:param name="html.longdesc">0</xsl:param>
	<xsl:param name="ulink.target"/>
	<xsl:param name="use.viewport">0</xsl:param>

	<!-- a listing starts at its first line and ends at its last: the
	     newline after <![CDATA[ and the white space before ]]> go -->
	<xsl:template match="programlisting/text()|screen/text()">
		<xsl:variable name="s">
			<xsl:choose>
				<xsl:when test="not(preceding-sibling::node()) and
					starts-with(., '&#10;')">
					<xsl:value-of select="substring(., 2)"/>
				</xsl:when>
				<xsl:otherwise>
					<xsl:value-of select="."/>
				</xsl:otherwise>
			</xsl:choose>
		</xsl:variable>
		<xsl:choose>
			<xsl:when test="not(following-sibling::node())">
				<xsl:call-template name="ovc.trim.right">
					<xsl:with-param name="s" select="$s"/>
				</xsl:call-template>
			</xsl:when>
			<xsl:otherwise>
				<xsl:value-of select="$s"/>
			</xsl:otherwise>
		</xsl:choose>
	</xsl:template>

	<xsl:template name="ovc.trim.right">
		<xsl:param name="s"/>
		<xsl:variable name="last" select="substring($s, string-length($s))"/>
		<xsl:choose>
			<xsl:when test="$s != '' and normalize-space($last) = ''">
				<xsl:call-template name="ovc.trim.right">
					<xsl:with-param name="s"
						select="substring($s, 1, string-length($s) - 1)"/>
				</xsl:call-template>
			</xsl:when>
			<xsl:otherwise>
				<xsl:value-of select="$s"/>
			</xsl:otherwise>
		</xsl:choose>
	</xsl:template>
</xsl:stylesheet>
