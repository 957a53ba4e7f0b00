"""companion"""
